package dev.omcp.app;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MainTest {

    @Test
    void onlyAPlainServe_takesTheFastPathPastPicocli() {
        assertThat(Main.isPlainServe()).isTrue();
        assertThat(Main.isPlainServe("serve")).isTrue();
        assertThat(Main.isPlainServe("serve", "--test-conformance-fixture")).isTrue();
        assertThat(Main.isPlainServe("serve", "--help")).isFalse();
        assertThat(Main.isPlainServe("serve", "--unknown")).isFalse();
        assertThat(Main.isPlainServe("--version")).isFalse();
        assertThat(Main.isPlainServe("demo")).isFalse();
        assertThat(Main.isPlainServe("plugin", "list")).isFalse();
    }
}
