package dev.omcp.adapters.storage.inspect;

import dev.omcp.adapters.storage.yaml.YamlProblem;
import dev.omcp.ports.inspect.ProfileStore.ProfileStoreException;
import dev.omcp.sdk.text.BackendText;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * A YAML profile file as a {@link Placed} tree. SnakeYAML only composes the document (nodes with their marks and the
 * tags its safe resolver gave them); nothing is constructed from a tag, and a tag other than those of plain mappings,
 * lists, strings, numbers, booleans, null and dates is refused. Aliases are bounded as in the other YAML files of the
 * gateway: at most 50 of collections, and what the document expands to through them at most four times the file's bound.
 */
final class PlacedYaml {
    private static final int MAX_ALIASES = 50;
    /** Deeper than any profile is (the window of a rule's provenance is at depth 5), so a self-referencing alias ends here. */
    static final int MAX_DEPTH = 16;

    private final String source;
    private final long maxUnits;
    private long units;

    private PlacedYaml(String source, long maxUnits) {
        this.source = source;
        this.maxUnits = maxUnits;
    }

    /**
     * The document of {@code text}, or null when it holds none (blank, or comments only).
     *
     * @param source names the file in messages
     * @param maxBytes the file's bound: the code points read, and a quarter of what the document may expand to
     * @throws ProfileStoreException naming the line and column of what is not valid YAML or not allowed in a profile
     */
    static Placed read(String text, String source, int maxBytes) {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setAllowRecursiveKeys(false);
        options.setCodePointLimit(maxBytes);
        Node root;
        try {
            root = new Yaml(new SafeConstructor(options)).compose(new StringReader(text));
        } catch (YAMLException e) {
            throw ProfileProblems.refusal(List.of(source + " is not valid YAML " + YamlProblem.describe(e)));
        }
        return root == null ? null : new PlacedYaml(source, 4L * maxBytes).placed(root, 1);
    }

    private Placed placed(Node node, int depth) {
        Placed.Place place = place(node.getStartMark());
        if (depth > MAX_DEPTH) {
            throw refusal(place, "the document is nested deeper than " + MAX_DEPTH + " levels (or an alias refers to itself);"
                    + " a profile is " + ProfileShape.EXAMPLE);
        }
        count(1);
        return switch (node) {
            case MappingNode mapping when mapping.getTag().equals(Tag.MAP) -> {
                List<Placed.Member> members = new ArrayList<>();
                for (NodeTuple tuple : mapping.getValue()) {
                    if (!(tuple.getKeyNode() instanceof ScalarNode key)) {
                        throw refusal(place(tuple.getKeyNode().getStartMark()), "a key must be a plain name, not a list or a mapping");
                    }
                    count(1 + key.getValue().length());
                    members.add(new Placed.Member(key.getValue(), place(key.getStartMark()), placed(tuple.getValueNode(), depth + 1)));
                }
                yield new Placed.Mapping(place, List.copyOf(members));
            }
            case SequenceNode sequence when sequence.getTag().equals(Tag.SEQ) -> {
                List<Placed> items = new ArrayList<>();
                for (Node item : sequence.getValue()) {
                    items.add(placed(item, depth + 1));
                }
                yield new Placed.Sequence(place, List.copyOf(items));
            }
            case ScalarNode scalar -> {
                count(scalar.getValue().length());
                yield new Placed.Scalar(place, kind(scalar, place), scalar.getValue());
            }
            default -> throw refusal(place, "the tag '" + BackendText.quoted(node.getTag().getValue(), 64)
                    + "' is not allowed; a profile holds plain mappings, lists, strings and numbers");
        };
    }

    /** What the safe resolver (or an explicit standard tag) made of a scalar; a date stays text, for the reader to parse. */
    private Placed.Kind kind(ScalarNode scalar, Placed.Place place) {
        Tag tag = scalar.getTag();
        if (tag.equals(Tag.STR) || tag.equals(Tag.TIMESTAMP)) {
            return Placed.Kind.TEXT;
        }
        if (tag.equals(Tag.INT) || tag.equals(Tag.FLOAT)) {
            return Placed.Kind.NUMBER;
        }
        if (tag.equals(Tag.BOOL)) {
            return Placed.Kind.BOOLEAN;
        }
        if (tag.equals(Tag.NULL)) {
            return Placed.Kind.NULL;
        }
        throw refusal(place, "the tag '" + BackendText.quoted(tag.getValue(), 64)
                + "' is not allowed; a profile holds plain mappings, lists, strings and numbers");
    }

    /** Counts what the walk has expanded: one per value and key, one per character; aliases are expanded every time. */
    private void count(long more) {
        units += more;
        if (units > maxUnits) {
            throw ProfileProblems.refusal(List.of(source + " expands to more than " + (maxUnits >> 20) + " MiB through its aliases"
                    + " (*name); write the repeated values out"));
        }
    }

    private ProfileStoreException refusal(Placed.Place place, String what) {
        return ProfileProblems.refusal(List.of(source + " " + place + ": " + what));
    }

    private static Placed.Place place(Mark mark) {
        return new Placed.Place(mark.getLine() + 1, mark.getColumn() + 1); // 0-based in SnakeYAML
    }
}
