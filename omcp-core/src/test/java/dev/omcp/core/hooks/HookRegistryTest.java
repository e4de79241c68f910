package dev.omcp.core.hooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.hook.Hook;
import dev.omcp.sdk.hook.HookKind;
import dev.omcp.sdk.hook.HookResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** spec 6.1 rules 4 and 5: order and registration. */
class HookRegistryTest {
    private static final Hook PASS = (ctx, payload) -> HookResult.proceed();
    private final HookRegistry registry = new HookRegistry();

    private static HookRegistration hook(String plugin, HookKind kind, int priority) {
        return new HookRegistration(plugin, kind, priority, HookMode.ENFORCE, PASS);
    }

    @Test
    void rule4_hooksRunInAscendingPriority() {
        registry.register(hook("c", HookKind.TOOL_PRE_INVOKE, 300));
        registry.register(hook("a", HookKind.TOOL_PRE_INVOKE, 5));
        registry.register(hook("b", HookKind.TOOL_PRE_INVOKE, 100));
        assertThat(registry.hooks(HookKind.TOOL_PRE_INVOKE)).extracting(HookRegistration::plugin).containsExactly("a", "b", "c");
    }

    @Test
    void rule4_equalPrioritiesRunInPluginNameOrder_whateverOrderTheyWereRegisteredOrReinstalledIn() {
        registry.register(hook("zeta", HookKind.TOOL_PRE_INVOKE, 100));
        registry.register(hook("alpha", HookKind.TOOL_PRE_INVOKE, 100));
        registry.register(hook("mid", HookKind.TOOL_PRE_INVOKE, 100));
        // a reinstall re-registers a plugin last; the order must not depend on install history
        registry.replacePlugin("alpha", List.of(hook("alpha", HookKind.TOOL_PRE_INVOKE, 100)));
        assertThat(registry.hooks(HookKind.TOOL_PRE_INVOKE)).extracting(HookRegistration::plugin).containsExactly("alpha", "mid", "zeta");
    }

    @Test
    void rule5_registeringTheSamePluginAndKindAgain_replacesTheEarlierHook() {
        Hook first = (ctx, payload) -> HookResult.deny("first");
        Hook second = (ctx, payload) -> HookResult.deny("second");
        registry.register(new HookRegistration("audit", HookKind.TOOL_PRE_INVOKE, 100, HookMode.ENFORCE, first));
        registry.register(new HookRegistration("audit", HookKind.TOOL_PRE_INVOKE, 50, HookMode.ENFORCE, second));
        assertThat(registry.hooks(HookKind.TOOL_PRE_INVOKE)).singleElement()
                .satisfies(h -> assertThat(h.hook()).isSameAs(second))
                .satisfies(h -> assertThat(h.priority()).isEqualTo(50));
    }

    @Test
    void rule5_replacePlugin_dropsEveryEarlierRegistrationOfThatPluginOnly() {
        registry.register(hook("audit", HookKind.TOOL_PRE_INVOKE, 100));
        registry.register(hook("audit", HookKind.PROMPT_PRE_FETCH, 100));
        registry.register(hook("other", HookKind.TOOL_PRE_INVOKE, 100));
        registry.replacePlugin("audit", List.of(hook("audit", HookKind.RESOURCE_POST_FETCH, 100)));
        assertThat(registry.hooks(HookKind.TOOL_PRE_INVOKE)).extracting(HookRegistration::plugin).containsExactly("other");
        assertThat(registry.hooks(HookKind.PROMPT_PRE_FETCH)).isEmpty();
        assertThat(registry.hooks(HookKind.RESOURCE_POST_FETCH)).extracting(HookRegistration::plugin).containsExactly("audit");
        assertThat(registry.plugins()).containsExactly("audit", "other");
    }

    @Test
    void rule5_twoEntriesOfOneKindInOneRegistration_theLaterWins() {
        Hook later = (ctx, payload) -> HookResult.deny("later");
        registry.replacePlugin("audit", List.of(hook("audit", HookKind.TOOL_PRE_INVOKE, 1),
                new HookRegistration("audit", HookKind.TOOL_PRE_INVOKE, 2, HookMode.PERMISSIVE, later)));
        assertThat(registry.hooks(HookKind.TOOL_PRE_INVOKE)).singleElement().satisfies(h -> assertThat(h.hook()).isSameAs(later));
    }

    @Test
    void removePlugin_leavesNothingOfIt() {
        registry.register(hook("audit", HookKind.TOOL_PRE_INVOKE, 100));
        registry.removePlugin("audit");
        assertThat(registry.hooks(HookKind.TOOL_PRE_INVOKE)).isEmpty();
        assertThat(registry.plugins()).isEmpty();
    }

    @Test
    void aHookOfAnotherPluginCannotBeSmuggledIntoAReplacement() {
        assertThatThrownBy(() -> registry.replacePlugin("audit", List.of(hook("other", HookKind.TOOL_PRE_INVOKE, 1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not belong to plugin audit");
    }

    @Test
    void modesParseFromTheirWireNames() {
        assertThat(HookMode.fromWireName("Permissive")).contains(HookMode.PERMISSIVE);
        assertThat(HookMode.fromWireName("off")).isEmpty();
    }
}
