package dev.omcp.core.auth.password;

/**
 * The configurable part of the password policy (spec 5.3).
 *
 * @param minLength at least this many characters ({@code OMCP_PASSWORD_MIN_LENGTH}, default 12)
 * @param minClasses at least this many of lower case, upper case, digits and symbols
 *     ({@code OMCP_PASSWORD_MIN_CLASSES}, 1-4, default 3)
 * @param denylist whether the builtin common-password list applies
 *     ({@code OMCP_PASSWORD_DENYLIST_DISABLED} turns it off)
 * @param enforced whether violations refuse the password ({@code OMCP_PASSWORD_POLICY_DISABLED}
 *     turns it off)
 */
public record PasswordRules(int minLength, int minClasses, boolean denylist, boolean enforced) {
    /** Spec 5.3 defaults. */
    public static final PasswordRules DEFAULT = new PasswordRules(12, 3, true, true);

    public PasswordRules {
        if (minLength < 1 || minLength > 1024) {
            throw new IllegalArgumentException("minimum password length must be 1-1024, got " + minLength);
        }
        if (minClasses < 1 || minClasses > 4) {
            throw new IllegalArgumentException("minimum character classes must be 1-4, got " + minClasses);
        }
    }
}
