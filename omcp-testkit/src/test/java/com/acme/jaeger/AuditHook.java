package com.acme.jaeger;

import dev.omcp.sdk.hook.Hook;
import dev.omcp.sdk.hook.HookContext;
import dev.omcp.sdk.hook.HookKind;
import dev.omcp.sdk.hook.HookResult;
import jakarta.json.JsonObject;

/**
 * The hook of docs/writing-a-connector.md ("Hooks"), shipped in the example plugin's JAR and named
 * by its manifest as {@code com/acme/jaeger/AuditHook.class}.
 */
public final class AuditHook implements Hook {
    @Override
    public HookResult handle(HookContext context, JsonObject payload) {
        if (context.kind() == HookKind.TOOL_PRE_INVOKE && payload.getJsonObject("args").containsKey("bypass_redaction")) {
            return HookResult.deny("bypass_redaction is not allowed for " + context.principal());
        }
        return HookResult.proceed();
    }
}
