package dev.omcp.testkit.guide;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A page of docs/, read from a module directory (where Maven runs the tests), with its fenced blocks and links. */
record MarkdownPage(Path path, String text) {
    /** A link of the page: {@code [text](target)}, the target without its {@code #anchor}. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]*)(#[^)\\s]*)?\\)");

    static MarkdownPage read(String name) {
        Path path = Path.of("..", "docs", name);
        try {
            return new MarkdownPage(path, Files.readString(path));
        } catch (IOException e) {
            throw new UncheckedIOException("docs/" + name + " is read from the module directory, where Maven runs the tests", e);
        }
    }

    /** The fenced blocks of {@code language} ({@code ""} for blocks without one), each as its lines. */
    List<List<String>> blocks(String language) {
        List<List<String>> blocks = new ArrayList<>();
        String open = null; // the language of the block the line is in, null outside blocks
        List<String> current = new ArrayList<>();
        for (String line : text.split("\n", -1)) {
            String fence = line.strip();
            if (open == null && fence.startsWith("```")) {
                open = fence.substring(3);
                current = new ArrayList<>();
            } else if (open != null && fence.equals("```")) {
                if (open.equals(language)) {
                    blocks.add(current);
                }
                open = null;
            } else if (open != null) {
                current.add(line);
            }
        }
        return blocks;
    }

    /** The targets of the page's links to files of the repository (not to other sites, not within the page). */
    List<String> relativeLinks() {
        List<String> targets = new ArrayList<>();
        Matcher link = LINK.matcher(text);
        while (link.find()) {
            String target = link.group(1);
            if (!target.isEmpty() && !target.contains("://")) {
                targets.add(target);
            }
        }
        return targets;
    }
}
