package dev.omcp.testkit.guide;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.jaeger.AuditHook;
import dev.omcp.sdk.hook.HookContext;
import dev.omcp.sdk.hook.HookKind;
import dev.omcp.sdk.hook.HookResult;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

/** The hook of docs/writing-a-connector.md does what the page shows it for. */
class AuditHookTest {
    private static final JsonObject BYPASSING = Jsonp.object().add("args", Jsonp.object().add("bypass_redaction", true)).build();

    private static HookContext before(HookKind kind) {
        return new HookContext("key:ci-bot", "", kind, "query_logs");
    }

    @Test
    void aToolCallAskingToBypassRedaction_isDeniedNamingThePrincipal() {
        HookResult result = new AuditHook().handle(before(HookKind.TOOL_PRE_INVOKE), BYPASSING);

        assertThat(result.allow()).isFalse();
        assertThat(result.reason()).hasValue("bypass_redaction is not allowed for key:ci-bot");
    }

    @Test
    void otherToolCalls_proceedUnchanged() {
        JsonObject plain = Jsonp.object().add("args", Jsonp.object().add("service", "checkout")).build();

        assertThat(new AuditHook().handle(before(HookKind.TOOL_PRE_INVOKE), plain)).isEqualTo(HookResult.proceed());
    }

    @Test
    void afterTheCall_theHookDoesNotJudge() {
        assertThat(new AuditHook().handle(before(HookKind.TOOL_POST_INVOKE), BYPASSING)).isEqualTo(HookResult.proceed());
    }
}
