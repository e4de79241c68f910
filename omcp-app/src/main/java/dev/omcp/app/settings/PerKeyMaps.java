package dev.omcp.app.settings;

import dev.omcp.ports.products.Product;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.text.BackendText;
import dev.omcp.sdk.text.LogField;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * The one parser of the per-key maps of the agent transport (DECISIONS.md, "Agent transport"): {@code name=value}
 * entries separated by {@code ;} ({@code OMCP_KEY_TENANTS}, {@code OMCP_KEY_RATE_PER_MIN}), whose value is a list
 * {@code a|b} for {@code OMCP_KEY_TOOLS}, {@code OMCP_KEY_SOURCES} and {@code OMCP_KEY_PRODUCTS}. Empty entries and the
 * blanks around names, values and items are ignored.
 *
 * <p>Strict, because these are security settings: an entry without {@code =}, without a name or a value, naming no
 * key of {@code OMCP_API_KEYS}, or naming a key a second time, and a list with an empty item, is an invalid value that
 * stops the start with every other problem. One exception, which spec 8 dictates: {@code OMCP_KEY_RATE_PER_MIN}
 * skips an entry naming an unknown key or holding no positive count (nor a disable word), with a warning, and the
 * default rate applies.
 *
 * <p>No message shows a token. Entries are named by position; a key name, value or item is shown only when it is
 * shorter than the shortest token ({@link #MIN_TOKEN_LENGTH}): text pasted into the wrong place, or an
 * {@code OMCP_API_KEYS} entry written {@code token:name}, may be a token.
 */
final class PerKeyMaps {
    /** The words that turn a key's rate limit off (spec 8), in any case. */
    static final List<String> DISABLE_WORDS = List.of("off", "none", "unlimited", "disabled", "false");
    /** As {@code OMCP_API_KEYS} refuses shorter tokens, shorter text cannot be one. */
    private static final int MIN_TOKEN_LENGTH = 16;
    private static final java.util.regex.Pattern ROLE = java.util.regex.Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    /** One {@code name=value} entry; {@code position} counts from 1 among the entries that are not empty. */
    private record Entry(int position, String name, String value) {}

    /**
     * The rate overrides read, and the entries skipped, each as a log line (event {@code key-rate-skipped}).
     */
    record Rates(Map<String, Settings.KeyRate> byKey, List<String> skipped) {
        Rates {
            byKey = Map.copyOf(byKey);
            skipped = List.copyOf(skipped);
        }
    }

    private final Environment environment;
    private final Optional<Set<String>> keyNames;

    /**
     * @param keyNames the names of the keys of {@code OMCP_API_KEYS}; empty when that could not be read (its problems
     *     stop the start), so that every entry is not refused a second time for naming a key it does not know
     */
    PerKeyMaps(Environment environment, Optional<Set<String>> keyNames) {
        this.environment = environment;
        this.keyNames = keyNames;
    }

    /** {@code OMCP_KEY_TENANTS}: per key name, its tenant, one a source can be bound to ({@link SourceConfig#TENANT_RULE}). */
    Map<String, String> tenants() {
        Map<String, String> tenants = new LinkedHashMap<>();
        for (Entry entry : strictEntries(Variables.KEY_TENANTS, "the tenant")) {
            if (!SourceConfig.isValidTenant(entry.value())) {
                // matched exactly against the sources' tenants: one no source can be bound to would leave the key only the
                // unbound sources, without a word
                problem(Variables.KEY_TENANTS, label(entry) + " has a tenant (" + shown(entry.value()) + ") that must have "
                        + SourceConfig.TENANT_RULE + " (shown as ?)");
                continue;
            }
            tenants.put(entry.name(), entry.value());
        }
        return tenants;
    }

    /** {@code OMCP_KEY_TOOLS}: per key name, the tools it may see and call. */
    Map<String, List<String>> tools() {
        return lists(Variables.KEY_TOOLS, "the tools it may use", (entry, item) -> { });
    }

    /** {@code OMCP_KEY_SOURCES}: per key name, the sources its tool calls may use, each a valid source name. */
    Map<String, List<String>> sources() {
        return lists(Variables.KEY_SOURCES, "the sources it may use", (entry, item) -> {
            if (!SourceConfig.isValidName(item)) {
                // no source can ever have it: a list that can never match is a mistake, not a limit
                problem(Variables.KEY_SOURCES, label(entry) + " lists " + shown(item) + ", which is not a source name: "
                        + SourceConfig.NAME_RULE);
            }
        });
    }

    /**
     * {@code OMCP_KEY_PRODUCTS}: per key name, the Products it may use, each a valid Product id. Whether such a Product
     * exists is the start's warning, not a problem: Products are created through the API while the gateway runs.
     */
    Map<String, List<String>> products() {
        return lists(Variables.KEY_PRODUCTS, "the Products it may use", (entry, item) -> {
            if (!Product.ID.matcher(item).matches()) {
                // no Product can ever have it: a list that can never match is a mistake, not a limit
                problem(Variables.KEY_PRODUCTS, label(entry) + " lists " + shown(item) + ", which is not a Product id: "
                        + Product.ID_RULE);
            }
        });
    }

    /**
     * {@code OMCP_KEY_ROLES}: per key name, the roles it holds. Whether the access policy defines them is the start's
     * warning ({@code AgentKeys}), as a custom policy file or OPA decides what a role means.
     */
    Map<String, List<String>> roles() {
        return lists(Variables.KEY_ROLES, "the roles it holds", (entry, item) -> {
            if (!ROLE.matcher(item).matches()) {
                problem(Variables.KEY_ROLES, label(entry) + " lists " + shown(item) + ", which is not a role name: 1-64 of A-Z, a-z,"
                        + " 0-9, '_', '.', '-'");
            }
        });
    }

    /**
     * {@code OMCP_KEY_BYPASS_REDACTION}: the names of the keys that may skip the redaction of {@code query_logs} (spec 5.7),
     * a comma-separated list. A name that is no key, or is listed twice, refuses the start: this is the one setting
     * that lifts a protection, so a typo must not pass unseen.
     */
    Set<String> bypassRedaction() {
        Variable variable = Variables.KEY_BYPASS_REDACTION;
        Optional<String> raw = environment.raw(variable);
        if (raw.isEmpty()) {
            return Set.of();
        }
        if (keyNames.isPresent() && keyNames.get().isEmpty()) {
            environment.requiresWith(Variables.API_KEYS, List.of(variable));
            return Set.of();
        }
        List<String> names = Arrays.stream(raw.get().split(",", -1)).map(String::trim).toList();
        Set<String> listed = new java.util.LinkedHashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            int position = i + 1;
            String label = name.length() < MIN_TOKEN_LENGTH ? "item " + position + " ('" + BackendText.quoted(name, MIN_TOKEN_LENGTH) + "')"
                    : "item " + position + " (not shown: it may be a token)";
            if (name.isEmpty()) {
                problem(variable, "item " + position + " is empty; separate the key names with one ',', with none at either end");
            } else if (keyNames.isPresent() && !keyNames.get().contains(name)) {
                problem(variable, label + " names no key of " + Variables.API_KEYS.name() + "; use the name of one of its name:token"
                        + " entries");
            } else if (!listed.add(name)) {
                problem(variable, label + " lists the same key twice; list each key once");
            }
        }
        return Set.copyOf(listed);
    }

    /**
     * {@code OMCP_KEY_RATE_PER_MIN}: per key name, a positive count of requests per minute or a disable word. An entry
     * naming no key, or holding neither, is skipped (spec 8: the default applies), and said in {@link Rates#skipped()}.
     */
    Rates rates() {
        Variable variable = Variables.KEY_RATE_PER_MIN;
        // by position, as the operator reads the variable
        Map<Integer, String> skipped = new TreeMap<>();
        Map<String, Settings.KeyRate> rates = new LinkedHashMap<>();
        List<Entry> entries = entries(variable, entry -> skipped.put(entry.position(), skippedLine(entry, "names no key of "
                + Variables.API_KEYS.name(), "the entry has no effect; each key without an entry of its own keeps the default rate")));
        for (Entry entry : entries) {
            Optional<Settings.KeyRate> rate = rate(entry.value());
            if (rate.isEmpty()) {
                String reason = entry.value().isEmpty() ? "has nothing after '='"
                        : "holds " + shown(entry.value()) + ", which is neither a positive whole number of requests per minute nor "
                                + "one of " + String.join(", ", DISABLE_WORDS);
                skipped.put(entry.position(), skippedLine(entry, reason, "this key keeps the default rate"));
                continue;
            }
            rates.put(entry.name(), rate.get());
        }
        return new Rates(rates, List.copyOf(skipped.values()));
    }

    private static Optional<Settings.KeyRate> rate(String value) {
        if (DISABLE_WORDS.contains(value.toLowerCase(Locale.ROOT))) {
            return Optional.of(new Settings.KeyRate.Disabled());
        }
        try {
            int count = Integer.parseInt(value);
            return count >= 1 ? Optional.of(new Settings.KeyRate.PerMinute(count)) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String skippedLine(Entry entry, String reason, String effect) {
        String key = entry.name().length() < MIN_TOKEN_LENGTH ? " key=\"" + LogField.of(entry.name()) + "\"" : "";
        return "event=key-rate-skipped variable=" + Variables.KEY_RATE_PER_MIN.name() + " entry=" + entry.position() + key
                + " reason=\"" + LogField.of(reason) + "\" effect=\"" + effect + "\" fix=\"write the entry as name=count (a key"
                + " name of " + Variables.API_KEYS.name() + ", a count from 1) or name=off, or remove it\"";
    }

    /** The lists of {@code variable}, each item passed to {@code checkItem}, which records a problem of its own. */
    private Map<String, List<String>> lists(Variable variable, String what, BiConsumer<Entry, String> checkItem) {
        Map<String, List<String>> lists = new LinkedHashMap<>();
        for (Entry entry : strictEntries(variable, what)) {
            List<String> items = Arrays.stream(entry.value().split("\\|", -1)).map(String::trim).toList();
            if (items.contains("")) {
                problem(variable, label(entry) + " has an empty item in its list; separate the names with one '|', with none"
                        + " at either end");
                continue;
            }
            int problemsBefore = environment.problems().size();
            items.forEach(item -> checkItem.accept(entry, item));
            if (environment.problems().size() == problemsBefore) {
                lists.put(entry.name(), items.stream().distinct().toList());
            }
        }
        return lists;
    }

    /**
     * The entries of a strict map: an entry naming no key, or with nothing after {@code =}, is a problem and left out.
     * Without any key ({@code OMCP_API_KEYS} unset) the map is refused as a whole, once, and nothing is read.
     */
    private List<Entry> strictEntries(Variable variable, String what) {
        if (keyNames.isPresent() && keyNames.get().isEmpty()) {
            environment.requiresWith(Variables.API_KEYS, List.of(variable));
            return List.of();
        }
        List<Entry> valued = new ArrayList<>();
        for (Entry entry : entries(variable, entry -> problem(variable, unknownKey(entry)))) {
            if (entry.value().isEmpty()) {
                problem(variable, label(entry) + " has nothing after '='; give " + what + ", or leave the key out");
                continue;
            }
            valued.add(entry);
        }
        return valued;
    }

    /**
     * The well-formed entries of {@code variable} that name a known key, once each. An entry without {@code =} or without
     * a name, and a key named twice, are problems (for every map: which one was meant cannot be told); an entry naming
     * no key goes to {@code unknownKey}.
     */
    private List<Entry> entries(Variable variable, java.util.function.Consumer<Entry> unknownKey) {
        Optional<String> raw = environment.raw(variable);
        if (raw.isEmpty()) {
            return List.of();
        }
        List<String> texts = Arrays.stream(raw.get().split(";")).map(String::trim).filter(text -> !text.isEmpty()).toList();
        if (texts.isEmpty()) {
            // read as unset it would quietly mean no limit, the opposite of what whoever set it wanted
            problem(variable, "is set but holds no entry, only ';' and spaces; give at least one name=value entry, or unset it");
            return List.of();
        }
        List<Entry> entries = new ArrayList<>();
        Map<String, Integer> firstEntryOf = new HashMap<>();
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i);
            int position = i + 1;
            int equals = text.indexOf('=');
            if (equals < 0) {
                problem(variable, "entry " + position + " must be name=value, the name of a key of " + Variables.API_KEYS.name()
                        + " then '=' (the entry is not shown)");
                continue;
            }
            Entry entry = new Entry(position, text.substring(0, equals).trim(), text.substring(equals + 1).trim());
            if (entry.name().isEmpty()) {
                problem(variable, "entry " + position + " has no key name before '='; write name=value");
                continue;
            }
            Integer first = firstEntryOf.putIfAbsent(entry.name(), position);
            if (first != null) {
                problem(variable, label(entry) + " names the same key as entry " + first + "; give each key one entry");
                continue;
            }
            if (keyNames.isPresent() && !keyNames.get().contains(entry.name())) {
                unknownKey.accept(entry);
                continue;
            }
            entries.add(entry);
        }
        return entries;
    }

    private static String unknownKey(Entry entry) {
        String named = entry.name().length() < MIN_TOKEN_LENGTH ? label(entry) + " names no key of " + Variables.API_KEYS.name()
                : "entry " + entry.position() + " names no key of " + Variables.API_KEYS.name() + " (the name is not shown: it may"
                        + " be a token)";
        return named + "; use the name of one of its name:token entries";
    }

    /** An entry as problems name it: by position, with its key name only when that cannot be a token. */
    private static String label(Entry entry) {
        return entry.name().length() < MIN_TOKEN_LENGTH ? "entry " + entry.position() + " (key '" + entry.name() + "')"
                : "entry " + entry.position();
    }

    /** A value or item as a problem quotes it: only when it cannot be a token. */
    private static String shown(String text) {
        // control and format characters as ?, so the one-line message shows where they are
        return text.length() < MIN_TOKEN_LENGTH ? "'" + BackendText.quoted(text, MIN_TOKEN_LENGTH) + "'" : "a value of " + text.length()
                + " characters, not shown as it may be a token";
    }

    private void problem(Variable variable, String message) {
        environment.problem(variable, message);
    }
}
