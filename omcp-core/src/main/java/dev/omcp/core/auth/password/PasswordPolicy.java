package dev.omcp.core.auth.password;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Checks a new password (spec 5.3) and names every violation, so an operator fixes them all at
 * once. Applied when a hash is minted ({@code omcp hash-password}); a login never re-checks it.
 */
public final class PasswordPolicy {
    private final PasswordRules rules;
    private final CommonPasswords common;

    public PasswordPolicy(PasswordRules rules, CommonPasswords common) {
        this.rules = Objects.requireNonNull(rules, "rules");
        this.common = Objects.requireNonNull(common, "common");
    }

    public PasswordRules rules() {
        return rules;
    }

    /**
     * Every rule {@code password} breaks, in a fixed order; empty when it is acceptable. The list
     * is computed even when the policy is not enforced, so a forced weak password is still named
     * weak.
     */
    public List<String> violations(String username, String password) {
        List<String> violations = new ArrayList<>();
        int length = password.codePointCount(0, password.length());
        if (length < rules.minLength()) {
            violations.add("it has " + length + " characters; at least " + rules.minLength() + " are required");
        }
        int classes = characterClasses(password);
        if (classes < rules.minClasses()) {
            violations.add("it uses " + classes + " of the 4 character classes (lower case, upper case, digits, symbols); at least "
                    + rules.minClasses() + " are required");
        }
        if (rules.denylist() && common.contains(password)) {
            violations.add("it is on the list of common passwords, or a listed word with digits and symbols added");
        }
        if (!username.isEmpty() && password.toLowerCase(Locale.ROOT).contains(username.toLowerCase(Locale.ROOT))) {
            violations.add("it contains the username");
        }
        return violations;
    }

    /** Whether the password may be used: no violations, or the policy is not enforced. */
    public boolean accepts(String username, String password) {
        return !rules.enforced() || violations(username, password).isEmpty();
    }

    static int characterClasses(String password) {
        boolean lower = false;
        boolean upper = false;
        boolean digit = false;
        boolean symbol = false;
        for (int i = 0; i < password.length(); ) {
            int c = password.codePointAt(i);
            if (Character.isLowerCase(c)) {
                lower = true;
            } else if (Character.isUpperCase(c)) {
                upper = true;
            } else if (Character.isDigit(c)) {
                digit = true;
            } else {
                symbol = true;
            }
            i += Character.charCount(c);
        }
        return (lower ? 1 : 0) + (upper ? 1 : 0) + (digit ? 1 : 0) + (symbol ? 1 : 0);
    }
}
