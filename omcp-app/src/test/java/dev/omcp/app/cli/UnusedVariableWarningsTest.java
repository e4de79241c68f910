package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.settings.UnusedVariables;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UnusedVariableWarningsTest {

    @Test
    void theLine_namesTheVariable_theModeItNeeds_theModeInForce_andWhatToDo_butNeverTheValue() {
        String secret = "oidc-secret-9f2c";
        UnusedVariables.Unused unused = UnusedVariables.in(Map.of("OMCP_AUTH", "basic", "OMCP_OIDC_CLIENT_SECRET", secret)).getFirst();

        assertThat(UnusedVariableWarnings.line(unused))
                .startsWith("event=unused-variable name=OMCP_OIDC_CLIENT_SECRET applies-when=OMCP_AUTH=oidc current=OMCP_AUTH=basic ")
                .contains("it has no effect while OMCP_AUTH=basic")
                .contains("set OMCP_AUTH=oidc to use it, or unset OMCP_OIDC_CLIENT_SECRET")
                .doesNotContain(secret);
    }
}
