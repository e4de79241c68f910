package dev.omcp.adapters.storage.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.access.PolicyDocument;
import org.junit.jupiter.api.Test;

class YamlPolicyFileTest {
    @Test
    void readsRolesInFileOrder() throws Exception {
        PolicyDocument document = YamlPolicyFile.parse("""
                version: 1
                roles:
                  auditor: [audit:read, policy:read]
                  source-admin:
                    - sources:*
                  root: ["*"]
                  nobody: []
                """, "p.yaml");
        assertThat(document.roles().keySet()).containsExactly("auditor", "source-admin", "root", "nobody");
        assertThat(document.roles().get("source-admin")).containsExactly("sources:*");
        assertThat(document.roles().get("nobody")).isEmpty();
    }

    @Test
    void anEmptyFile_orOneOfOnlyComments_isReportedAsEmpty_withWhatToWriteInIt() {
        for (String yaml : new String[] {"", "  \n\n", "# roles to come\n"}) {
            assertThatThrownBy(() -> YamlPolicyFile.parse(yaml, "p.yaml"))
                    .isInstanceOfSatisfying(InvalidPolicyFileException.class, e -> assertThat(e.problems()).containsExactly(
                            "p.yaml is empty (nothing but blanks or comments); it must hold a 'roles' mapping, such as "
                                    + "roles: {auditor: [audit:read]}"));
        }
    }

    @Test
    void everyStructuralProblemIsListed() {
        assertThatThrownBy(() -> YamlPolicyFile.parse("""
                version: 2
                rolez: {}
                roles:
                  a: sources:read
                  b: [1, sources:read]
                """, "p.yaml"))
                .isInstanceOfSatisfying(InvalidPolicyFileException.class, e -> assertThat(e.problems()).hasSize(4)
                        .anySatisfy(p -> assertThat(p).contains("version must be 1"))
                        .anySatisfy(p -> assertThat(p).contains("unknown top-level key 'rolez'"))
                        .anySatisfy(p -> assertThat(p).contains("role 'a' must map to a list"))
                        .anySatisfy(p -> assertThat(p).contains("'1' is not a string")));
    }

    @Test
    void duplicateKeysAndUnsafeTagsAreRefused() {
        assertThatThrownBy(() -> YamlPolicyFile.parse("roles:\n  a: [x:read]\n  a: [y:read]\n", "p.yaml"))
                .isInstanceOf(InvalidPolicyFileException.class).hasMessageContaining("not valid YAML");
        assertThatThrownBy(() -> YamlPolicyFile.parse("roles: !!javax.script.ScriptEngineManager [!!java.net.URLClassLoader [[]]]", "p.yaml"))
                .isInstanceOf(InvalidPolicyFileException.class);
        assertThatThrownBy(() -> YamlPolicyFile.parse("- just\n- a list\n", "p.yaml"))
                .isInstanceOf(InvalidPolicyFileException.class).hasMessageContaining("mapping");
        assertThatThrownBy(() -> YamlPolicyFile.parse("roles: [", "p.yaml")).isInstanceOf(InvalidPolicyFileException.class);
    }

    @Test
    void billionLaughsIsRefused() {
        StringBuilder yaml = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x]\n");
        char previous = 'a';
        for (char c = 'b'; c <= 'k'; c++) {
            yaml.append(c).append(": &").append(c).append(" [");
            for (int i = 0; i < 9; i++) {
                yaml.append(i == 0 ? "" : ", ").append('*').append(previous);
            }
            yaml.append("]\n");
            previous = c;
        }
        yaml.append("roles: {}\n");
        assertThatThrownBy(() -> YamlPolicyFile.parse(yaml.toString(), "p.yaml")).isInstanceOf(InvalidPolicyFileException.class);
    }
    @Test
    void aliasesOfOneHugeScalarAreRefused() {
        String yaml = "roles:\n  big: [&a \"" + "x".repeat(300_000) + "\", " + String.join(", ", java.util.Collections.nCopies(150_000, "*a"))
                + "]\n";
        assertThatThrownBy(() -> YamlPolicyFile.parse(yaml, "p.yaml"))
                .isInstanceOf(InvalidPolicyFileException.class).hasMessageContaining("expands to more than 4 MiB");
    }

    @Test
    void problemsQuoteTheFileWithoutControlCharacters_andCutLongValues() {
        String yaml = "\"top\\e[2Jkey\": 1\n"
                + "version: \"1\\u202e\"\n"
                + "roles:\n"
                + "  \"evil\\e[2J\\nrole\": sources:read\n"
                + "  ok: [1, {k: \"" + "y".repeat(5000) + "\"}]\n";
        assertThatThrownBy(() -> YamlPolicyFile.parse(yaml, "p.yaml"))
                .isInstanceOfSatisfying(InvalidPolicyFileException.class, e -> assertThat(e.problems()).hasSize(5)
                        .anySatisfy(p -> assertThat(p).contains("unknown top-level key 'top?[2Jkey'"))
                        .anySatisfy(p -> assertThat(p).contains("version must be 1, got '1?'"))
                        .anySatisfy(p -> assertThat(p).contains("role 'evil?[2J?role' must map to a list"))
                        .anySatisfy(p -> assertThat(p).contains("'{k=yyy").contains("…' is not a string"))
                        .allSatisfy(p -> assertThat(p).doesNotContainPattern("[\\p{Cc}\\p{Cf}]").hasSizeLessThan(200)));
    }
}
