package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.settings.UnknownVariables;
import dev.omcp.app.settings.UnknownVariables.Unknown;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UnknownVariableWarningsTest {

    @Test
    void theLine_namesTheVariable_theLikelyMeaning_andWhatToDo() {
        assertThat(UnknownVariableWarnings.line(new Unknown("OMCP_REDACTON", Optional.of("OMCP_REDACTION"))))
                .startsWith("event=unknown-variable name=OMCP_REDACTON suggestion=OMCP_REDACTION ")
                .contains("keeps its default")
                .contains("did you mean OMCP_REDACTION?");
    }

    @Test
    void withoutASuggestion_theLinePointsAtTheDocs() {
        assertThat(UnknownVariableWarnings.line(new Unknown("OMCP_KEY_TENANTS", Optional.empty())))
                .startsWith("event=unknown-variable name=OMCP_KEY_TENANTS effect=")
                .doesNotContain("suggestion")
                .contains("docs/configuration.md");
    }

    @Test
    void aSettingNotSupportedYet_isSaidToHaveNoEffect_withWhatAppliesInstead() {
        assertThat(UnknownVariableWarnings.line(new UnknownVariables.NotSupported("OMCP_KEY_PRODUCTS", "products do not exist")))
                .isEqualTo("event=unsupported-variable name=OMCP_KEY_PRODUCTS effect=\"this version does not support it yet: it has no "
                        + "effect; products do not exist\" fix=\"unset it, or keep it for a later version (docs/configuration.md)\"");
    }

    @Test
    void aNearMissWithoutThePrefix_namesTheLikelyMeaning_andAllowsThatItIsAnotherProgramsVariable() {
        assertThat(UnknownVariableWarnings.line(new Unknown("PROMETHEUS_ULR", Optional.of("PROMETHEUS_URL"))))
                .startsWith("event=unknown-variable name=PROMETHEUS_ULR suggestion=PROMETHEUS_URL ")
                .contains("PROMETHEUS_URL, that setting keeps its default")
                .contains("did you mean PROMETHEUS_URL?")
                .contains("if it belongs to another program, ignore this");
    }

    @Test
    void aNameThatIsNoPlainVariableName_isQuotedEscaped_soTheEnvironmentCannotForgeALineOrAField() {
        // the process environment may hold any name: a line break or a space in it would start another event or field
        assertThat(UnknownVariableWarnings.line(new Unknown("OMCP_X\n event=forged fix=", Optional.empty())))
                .startsWith("event=unknown-variable name=\"OMCP_X\\u000a event=forged fix=\" effect=")
                .doesNotContain("\n");
    }
}
