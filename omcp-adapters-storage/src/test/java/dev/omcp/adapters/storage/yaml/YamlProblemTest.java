package dev.omcp.adapters.storage.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.Collections;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/** What an operator is told about a YAML file SnakeYAML refused: where and what, never the text of the line. */
class YamlProblemTest {
    private static String problem(String yaml) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(2);
        options.setNestingDepthLimit(5);
        YAMLException e = catchThrowableOfType(YAMLException.class, () -> new Yaml(new SafeConstructor(options)).load(yaml));
        assertThat(e).as("refused").isNotNull();
        return YamlProblem.describe(e);
    }

    @Test
    void aSyntaxError_isPlacedByLineAndColumn_withoutTheSnippetSnakeYamlQuotes() {
        String yaml = "a: 1\nauth: {token: very-secret-value]\n";
        assertThat(problem(yaml)).isEqualTo("at line 2, column 32: expected ',' or '}', but got ] (while parsing a flow mapping)");
    }

    @Test
    void aDuplicateKey_namesTheKeyAndItsPlace() {
        assertThat(problem("url: a\nurl: b\n")).isEqualTo("at line 2, column 1: found duplicate key url (while constructing a mapping)");
    }

    @Test
    void aDuplicateKeyWithControlCharacters_isNamedWithThemEscaped() {
        // the key came as written into the log and the sources API: an escape sequence drove the reader's terminal
        assertThat(problem("\"k\\e[31m\": 1\n\"k\\e[31m\": 2\n"))
                .isEqualTo("at line 2, column 1: found duplicate key k\\u001b[31m (while constructing a mapping)");
    }

    @Test
    void aPassedLimit_isSaidInParentheses() {
        String aliases = "a: &x [1]\nb: [" + String.join(", ", Collections.nCopies(3, "*x")) + "]\n";
        assertThat(problem(aliases)).startsWith("(Number of aliases for non-scalar nodes exceeds the specified max=2");
        assertThat(problem("a: [[[[[[[1]]]]]]]\n")).startsWith("(Nesting Depth exceeded max 5");
    }

    @Test
    void aTagThatWouldBuildAJavaObject_isRefusedByName() {
        assertThat(problem("a: !!java.io.File [\"/etc/passwd\"]\n")).startsWith("at line 1, column 4: ").contains("java.io.File");
    }
}
