package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** spec 2.4 and 6.1 rule 5: a hook module resolves inside the plugin root or is refused. */
class HookModulesTest {

    @ParameterizedTest
    @CsvSource({
            "com/acme/AuditHook.class, com.acme.AuditHook",
            "./com/acme/AuditHook.class, com.acme.AuditHook",
            "com/x/../acme/AuditHook.class, com.acme.AuditHook",
            "com.acme.AuditHook, com.acme.AuditHook",
            "AuditHook, AuditHook"})
    void modulesInsideTheRoot_resolveToAClassOfThePluginJar(String module, String className) {
        assertThat(HookModules.resolve(module)).isEqualTo(new HookModules.Resolved.ClassName(className));
    }

    @ParameterizedTest
    @ValueSource(strings = {"../Evil.class", "com/../../Evil.class", "/tmp/Evil.class", "C:/Evil.class", "..\\Evil.class"})
    void modulesEscapingTheRoot_areRefused(String module) {
        assertThat(HookModules.resolve(module)).isInstanceOfSatisfying(HookModules.Resolved.Refused.class,
                refused -> assertThat(refused.reason()).contains("escapes the plugin root"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"hooks/audit.js", "com.acme.1Hook", "com/acme/"})
    void modulesThatNameNoClass_areRefused(String module) {
        assertThat(HookModules.resolve(module)).isInstanceOf(HookModules.Resolved.Refused.class);
    }

    @org.junit.jupiter.api.Test
    void aClassNameOfTensOfThousandsOfPackages_isJudged_withoutOverflowingTheStack() {
        // the matcher must not recurse once per package: a manifest is another party's text
        String name = "a.".repeat(50_000) + "Hook";
        assertThat(HookModules.resolve(name)).isEqualTo(new HookModules.Resolved.ClassName(name));
        assertThat(HookModules.resolve(name.replace("Hook", ".Hook"))).isInstanceOf(HookModules.Resolved.Refused.class);
    }
}
