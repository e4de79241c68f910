package dev.omcp.adapters.storage.config;

import dev.omcp.adapters.storage.files.OperatorTextFile;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * The line of the sources file where an entry of its {@code sources:} list starts, so that a message can send the
 * operator to it: the loaded values keep no positions, so the file's text is composed again (nodes only, nothing
 * constructed from them).
 */
final class SourcesEntryLines {

    private SourcesEntryLines() {}

    /** The 1-based line of entry {@code index} (0-based) of the file's {@code sources:} list; empty when it cannot be told. */
    static Optional<Integer> lineOf(Path file, int maxBytes, int index) {
        if (!(OperatorTextFile.read(file, maxBytes) instanceof OperatorTextFile.Read.Text text)) {
            return Optional.empty();
        }
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(maxBytes);
        Node root;
        try {
            root = new Yaml(new SafeConstructor(options)).compose(new StringReader(text.text()));
        } catch (YAMLException e) {
            return Optional.empty(); // the file changed since it was read; the entry's index still says which
        }
        if (!(root instanceof MappingNode mapping)) {
            return Optional.empty();
        }
        for (NodeTuple tuple : mapping.getValue()) {
            if (tuple.getKeyNode() instanceof ScalarNode key && key.getValue().equals("sources")
                    && tuple.getValueNode() instanceof SequenceNode list && index < list.getValue().size()) {
                return Optional.of(list.getValue().get(index).getStartMark().getLine() + 1);
            }
        }
        return Optional.empty();
    }
}
