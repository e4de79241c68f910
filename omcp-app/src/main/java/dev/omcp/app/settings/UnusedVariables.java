package dev.omcp.app.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Variables the gateway reads that have no effect because a choice made elsewhere selects another
 * mode: the {@code OMCP_OIDC_*} ones while {@code OMCP_AUTH} is not {@code oidc}, for example. The
 * launcher warns about each; they never stop the start, unlike a setting whose feature is off
 * because the variable that turns it on is unset (see {@code Environment.requiresWith}). The
 * difference: here the operator chose the mode, and one environment file often serves several
 * modes (a staging profile on basic, production on OIDC), so a leftover is not a mistake to refuse.
 *
 * <p>Read from the environment of a start that was accepted, so the choices hold valid values.
 */
public final class UnusedVariables {
    /** How the lockout counts and backs off: unused with the lockout off. */
    private static final List<Variable> LOCKOUT_POLICY = List.of(Variables.LOCKOUT_MAX_FAILURES, Variables.LOCKOUT_WINDOW,
            Variables.LOCKOUT_BASE, Variables.LOCKOUT_MAX);

    private UnusedVariables() {}

    /**
     * One variable that has no effect.
     *
     * @param name its name as set
     * @param appliesWhen the choice under which it applies, such as {@code OMCP_AUTH=oidc}
     * @param current the choice in force, such as {@code OMCP_AUTH=basic} (never a secret: only modes are named)
     */
    public record Unused(String name, String appliesWhen, String current) {
        public Unused {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(appliesWhen, "appliesWhen");
            Objects.requireNonNull(current, "current");
        }
    }

    /** The unused variables of {@code env}, in the order the configuration page lists them; values are never kept. */
    public static List<Unused> in(Map<String, String> env) {
        List<Unused> unused = new ArrayList<>();
        String auth = choice(env, Variables.AUTH);
        if (!auth.equals("oidc")) {
            Variables.ACCESS_CONTROL.stream().filter(variable -> variable.name().startsWith("OMCP_OIDC_"))
                    .forEach(variable -> add(unused, env, variable, Variables.AUTH, "oidc", auth));
        }
        if (!auth.equals("basic")) {
            // the lockout guards password login, which only basic mode has
            Stream.concat(Stream.of(Variables.USERS_FILE, Variables.AUTH_ALLOW_FALLBACK), Stream.concat(LOCKOUT_POLICY.stream(),
                    Stream.of(Variables.LOCKOUT_DISABLED))).forEach(variable -> add(unused, env, variable, Variables.AUTH, "basic", auth));
        } else if (switchedOn(env, Variables.LOCKOUT_DISABLED)) {
            LOCKOUT_POLICY.forEach(variable -> add(unused, env, variable, Variables.LOCKOUT_DISABLED, "false", "true"));
        }
        if (auth.equals("oidc") && !switchedOn(env, Variables.OIDC_DCR_ENABLED)) {
            add(unused, env, Variables.OIDC_DCR_STORE, Variables.OIDC_DCR_ENABLED, "true", "false");
        }
        // without the audit file the interval is refused at read time; with it, only batch uses it
        String fsync = choice(env, Variables.AUDIT_FSYNC);
        if (isSet(env, Variables.MGMT_AUDIT_FILE.name()) && !fsync.equals("batch")) {
            add(unused, env, Variables.AUDIT_FSYNC_INTERVAL_MS, Variables.AUDIT_FSYNC, "batch", fsync);
        }
        // the keys verify plugins at load (VERIFY_PLUGINS, implied by strict mode) and every runtime install
        // (ENABLE_UI_INSTALL), which demands a signature whatever VERIFY_PLUGINS says; with all three off
        // the gateway never verifies a signature, and an operator who set a key may think plugins are checked
        if (!switchedOn(env, Variables.VERIFY_PLUGINS) && !switchedOn(env, Variables.PLUGIN_REQUIRE_SIGNATURE)
                && !switchedOn(env, Variables.ENABLE_UI_INSTALL)) {
            Stream.of(Variables.PLUGIN_TRUST_ROOT, Variables.PLUGIN_REVOKED_KEYS)
                    .forEach(variable -> add(unused, env, variable, Variables.VERIFY_PLUGINS, "true", "false"));
        }
        // the directory is in Redis: the file is neither read nor written (an operator moving to Redis may leave it set)
        String scimBackend = choice(env, Variables.SCIM_BACKEND);
        if (!scimBackend.equals("file")) {
            add(unused, env, Variables.SCIM_STORE, Variables.SCIM_BACKEND, "file", scimBackend);
        }
        return List.copyOf(unused);
    }

    private static void add(List<Unused> unused, Map<String, String> env, Variable variable, Variable choice, String applies,
            String current) {
        if (isSet(env, variable.name())) {
            unused.add(new Unused(variable.name(), choice.name() + "=" + applies, choice.name() + "=" + current));
        }
    }

    /** The mode a choice selects, as the settings reader reads it: trimmed, lower case, the default when unset. */
    private static String choice(Map<String, String> env, Variable variable) {
        String value = env.get(variable.name());
        return value == null || value.isBlank() ? variable.defaultValue() : value.trim().toLowerCase(Locale.ROOT);
    }

    /** A switch as the settings reader reads it (true, 1, yes, on in any case); unset means its default. */
    private static boolean switchedOn(Map<String, String> env, Variable variable) {
        return List.of("true", "1", "yes", "on").contains(choice(env, variable));
    }

    private static boolean isSet(Map<String, String> env, String name) {
        String value = env.get(name);
        return value != null && !value.isBlank();
    }
}
