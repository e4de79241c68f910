package dev.omcp.core.auth.password;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Spec 5.3: length, classes, the common-password list, the username, every violation listed. */
class PasswordPolicyTest {
    private final PasswordPolicy policy = new PasswordPolicy(PasswordRules.DEFAULT, CommonPasswords.builtin());

    @Test
    void theBuiltinListHoldsAFewHundredWords() {
        assertThat(CommonPasswords.builtin().size()).isBetween(250, 2000);
    }

    @Test
    void aStrongPasswordHasNoViolations() {
        assertThat(policy.violations("alice", "Tide-Lantern-42-Orbit")).isEmpty();
        assertThat(policy.accepts("alice", "Tide-Lantern-42-Orbit")).isTrue();
    }

    @Test
    void everyViolationIsListed() {
        assertThat(policy.violations("alice", "alice")).hasSize(3)
                .anySatisfy(v -> assertThat(v).contains("at least 12"))
                .anySatisfy(v -> assertThat(v).contains("1 of the 4 character classes"))
                .anySatisfy(v -> assertThat(v).contains("username"));
    }

    @Test
    void lengthCountsCharactersNotBytes() {
        assertThat(policy.violations("zed", "Äpfel-Bäume-1")).isEmpty();
        assertThat(policy.violations("zed", "Äpfel-Bäu1")).singleElement().asString().contains("10 characters");
    }

    @Test
    void characterClasses() {
        assertThat(PasswordPolicy.characterClasses("abc")).isEqualTo(1);
        assertThat(PasswordPolicy.characterClasses("abcDEF")).isEqualTo(2);
        assertThat(PasswordPolicy.characterClasses("abcDEF123")).isEqualTo(3);
        assertThat(PasswordPolicy.characterClasses("abcDEF123 ")).isEqualTo(4);
        assertThat(policy.violations("u", "lowercaseonlyhere")).singleElement().asString().contains("1 of the 4");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Password123!", "P@ssw0rd2024!", "Welcome123!!", "!!Dragon2024??", "Qwerty123456!", "Sunshine1234!",
            "Letmein!2025", "CorrectHorseBatteryStaple1!", "Passw0rd!Passw0rd!"})
    void commonPasswordsAndTheirPaddedVariantsAreRefused(String password) {
        assertThat(policy.violations("someone", password)).anySatisfy(v -> assertThat(v).contains("common passwords"));
    }

    @Test
    void theDenylistCanBeSwitchedOff() {
        PasswordPolicy noList = new PasswordPolicy(new PasswordRules(12, 3, false, true), CommonPasswords.builtin());
        assertThat(noList.violations("someone", "Password123!")).isEmpty();
    }

    @Test
    void theUsernameIsFoundInAnyCase() {
        assertThat(policy.violations("Alice", "xxALICE-2024-yy")).singleElement().asString().contains("username");
    }

    @Test
    void anUnenforcedPolicyAcceptsButStillNamesTheViolations() {
        PasswordPolicy lax = new PasswordPolicy(new PasswordRules(12, 3, true, false), CommonPasswords.builtin());
        assertThat(lax.accepts("a", "short")).isTrue();
        assertThat(lax.violations("a", "short")).isNotEmpty();
    }

    @Test
    void customRules() {
        PasswordPolicy rules = new PasswordPolicy(new PasswordRules(16, 4, true, true), CommonPasswords.builtin());
        assertThat(rules.violations("u", "Tide-Lantern-42")).hasSize(1);
        assertThat(rules.violations("u", "tide-lantern-42-orbit")).singleElement().asString().contains("at least 4");
        assertThatThrownBy(() -> new PasswordRules(12, 5, true, true)).hasMessageContaining("1-4");
        assertThatThrownBy(() -> new PasswordRules(0, 3, true, true)).hasMessageContaining("1-1024");
    }
}
