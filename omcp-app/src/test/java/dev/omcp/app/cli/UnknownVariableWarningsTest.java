package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

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
}
