package dev.omcp.adapters.http.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class IdentityTextTest {

    @Test
    void ordinaryIdentities_readAsThemselves_inEveryScript() {
        for (String identity : List.of("alice", "key:deploy-bot", "248289761001", "josé@example.com", "Ünal Öztürk", "用户-7",
                "auth0|5f7c8ec7c33c6c004bbafe82", "a b")) {
            assertThat(IdentityText.of(identity)).isEqualTo(identity);
        }
    }

    @Test
    void controlsLineBreaksAndQuotes_becomeEscapes_soNoLogLineOrFieldCanBeForged() {
        String forged = "alice\"\n2026-01-01 INFO event=login outcome=ok principal=\"admin\u001b[2J\r\u0085";

        String shown = IdentityText.of(forged);

        assertThat(shown).isEqualTo("alice\\u{22}\\u{A}2026-01-01 INFO event=login outcome=ok principal=\\u{22}admin"
                + "\\u{1B}[2J\\u{D}\\u{85}");
        assertThat(shown.chars()).allMatch(c -> c >= 0x20 && c < 0x7f);
    }

    @Test
    void bidiAndInvisibleCharacters_becomeEscapes_soOneIdentityCannotPassForAnother() {
        assertThat(IdentityText.of("ad\u200Bmin")).isEqualTo("ad\\u{200B}min");
        assertThat(IdentityText.of("\u202Enimda")).isEqualTo("\\u{202E}nimda");
        assertThat(IdentityText.of("admin\u2066\u2069\u200E\u200F\u061C\uFEFF\u00AD")).isEqualTo(
                "admin\\u{2066}\\u{2069}\\u{200E}\\u{200F}\\u{61C}\\u{FEFF}\\u{AD}");
        assertThat(IdentityText.of("ad\u3164min\uFE0F")).isEqualTo("ad\\u{3164}min\\u{FE0F}");
        assertThat(IdentityText.of("admin\u00A0\u2028")).isEqualTo("admin\\u{A0}\\u{2028}");
        assertThat(IdentityText.of("admin\uDB40\uDC01")).as("a tag character, outside the BMP").isEqualTo("admin\\u{E0001}");
        assertThat(IdentityText.of("admin\uD800")).as("a lone surrogate").isEqualTo("admin\\u{D800}");
    }

    @Test
    void theEscapedForm_namesExactlyOneIdentity() {
        // a backslash is escaped too, so text that looks like an escape cannot pass for the character
        List<String> identities = List.of("ad\u200Bmin", "ad\\u{200B}min", "ad\\\\u{200B}min", "admin", "\u202Eadmin", "\u202Dadmin");
        Set<String> shown = new HashSet<>();
        identities.forEach(identity -> shown.add(IdentityText.of(identity)));
        assertThat(shown).hasSameSizeAs(identities);
        assertThat(IdentityText.of("a\\b")).isEqualTo("a\\u{5C}b");
    }

    @Test
    void aLongIdentity_isBounded_andTwoThatShareABeginningStillShowApart() {
        String base = "x".repeat(300);
        String one = IdentityText.of(base + "1");
        String two = IdentityText.of(base + "2");

        assertThat(one).hasSizeLessThanOrEqualTo(IdentityText.MAX).startsWith("x".repeat(160) + "...#").matches("x{160}\\.\\.\\.#[0-9a-f]{16}");
        assertThat(two).hasSizeLessThanOrEqualTo(IdentityText.MAX).isNotEqualTo(one);
        assertThat(IdentityText.of("y".repeat(IdentityText.MAX))).as("exactly at the bound: kept whole").isEqualTo("y".repeat(IdentityText.MAX));
        assertThat(IdentityText.of("y".repeat(IdentityText.MAX + 1))).hasSizeLessThanOrEqualTo(IdentityText.MAX).contains("...#");
    }

    @Test
    void aMegabyteOfInvisibleCharacters_isBoundedToo_andNeverCutInsideAnEscape() {
        String shown = IdentityText.of("\u200B".repeat(1_000_000));

        assertThat(shown).hasSizeLessThanOrEqualTo(IdentityText.MAX).matches("(\\\\u\\{200B\\})+\\.\\.\\.#[0-9a-f]{16}");
    }
}
