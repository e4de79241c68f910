package dev.omcp.app.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.connectors.builtin.egress.GuardedResolverProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/embedding.md shows only code the embedding examples run (their ITs start them), so an
 * embedder who copies a block copies working code; and it names only artifacts the build has.
 */
class EmbeddingDocsTest {
    private static final Path PAGE = Path.of("..", "docs", "embedding.md");
    private static final Path EXAMPLES = Path.of("src", "test", "java", "dev", "omcp", "app", "embedding");
    private static final Pattern ARTIFACT = Pattern.compile("<artifactId>(omcp-[a-z-]+)</artifactId>");
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

    private static String page() throws IOException {
        assertThat(PAGE).as("docs/embedding.md, read from the omcp-app module directory").exists();
        return Files.readString(PAGE);
    }

    /** The fenced blocks of {@code language} ({@code ""} for blocks without one), each as its lines. */
    private static List<List<String>> blocks(String markdown, String language) {
        List<List<String>> blocks = new ArrayList<>();
        String open = null; // the language of the block the line is in, null outside blocks
        List<String> current = new ArrayList<>();
        for (String line : markdown.split("\n", -1)) {
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

    /** Lines without their indentation: the page indents blocks less than the class does. */
    private static List<String> stripped(List<String> lines) {
        return lines.stream().map(String::strip).toList();
    }

    @Test
    void everyJavaBlock_isARunOfLinesOfAnEmbeddingExample() throws IOException {
        List<List<String>> examples = List.of(
                stripped(Files.readAllLines(EXAMPLES.resolve(EmbeddedGatewayExample.class.getSimpleName() + ".java"))),
                stripped(Files.readAllLines(EXAMPLES.resolve(EmbeddedObservabilityExample.class.getSimpleName() + ".java"))));
        List<List<String>> blocks = blocks(page(), "java");
        assertThat(blocks).as("the page's Java blocks").hasSizeGreaterThanOrEqualTo(5);

        List<String> strays = new ArrayList<>();
        for (List<String> block : blocks) {
            List<String> lines = stripped(block);
            if (examples.stream().noneMatch(example -> Collections.indexOfSubList(example, lines) >= 0)) {
                strays.add(lines.getFirst());
            }
        }
        assertThat(strays).as("Java blocks of docs/embedding.md (by their first line) that no example holds as they are").isEmpty();
    }

    @Test
    void theResolverRegistration_isTheOneTheItGivesTheExample() throws IOException {
        String page = page();

        assertThat(page).contains("`" + EmbeddedObservabilityIT.RESOLVER_REGISTRATION + "`");
        assertThat(blocks(page, "")).contains(List.of(GuardedResolverProvider.class.getName()));
    }

    @Test
    void everyOmcpArtifactOfThePage_isAModuleOfTheBuild() throws IOException {
        List<String> modules = new ArrayList<>();
        Matcher module = MODULE.matcher(Files.readString(Path.of("..", "pom.xml")));
        while (module.find()) {
            modules.add(module.group(1));
        }
        List<String> named = new ArrayList<>();
        Matcher artifact = ARTIFACT.matcher(page());
        while (artifact.find()) {
            named.add(artifact.group(1));
        }

        assertThat(named).contains("omcp-core", "omcp-adapters-http", "omcp-connectors-builtin");
        assertThat(modules).containsAll(named);
    }

    @Test
    void theParssonOfThePage_isTheOneTheModulesAreBuiltWith() throws IOException {
        // a dependency block without a version does not even load outside this build's parent POM
        Matcher tested = Pattern.compile("<parsson\\.version>([^<]+)</parsson\\.version>")
                .matcher(Files.readString(Path.of("..", "pom.xml")));
        assertThat(tested.find()).as("parsson.version in the parent POM").isTrue();
        Matcher shown = Pattern.compile("<artifactId>parsson</artifactId>(?:<version>([^<]+)</version>)?").matcher(page());

        assertThat(shown.find()).as("the page's Parsson dependency").isTrue();
        assertThat(shown.group(1)).as("the version of the page's Parsson dependency").isEqualTo(tested.group(1));
    }

    @Test
    void theExamples_importNothingFromTheLauncher() throws IOException {
        for (Class<?> example : List.of(EmbeddedGatewayExample.class, EmbeddedObservabilityExample.class)) {
            List<String> imports = Files.readAllLines(EXAMPLES.resolve(example.getSimpleName() + ".java")).stream()
                    .filter(line -> line.startsWith("import ")).toList();
            assertThat(imports).as(example.getSimpleName()).isNotEmpty().noneMatch(line -> line.startsWith("import dev.omcp.app."));
        }
    }
}
