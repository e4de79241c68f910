package dev.omcp.adapters.storage.config;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.ports.plugins.PluginPin;
import dev.omcp.ports.settings.HealthThresholdsStore;
import dev.omcp.ports.settings.SettingsStoreException;
import dev.omcp.ports.settings.StoredThresholds;
import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.ports.sources.SourceStore;
import dev.omcp.ports.sources.SourceStoreException;
import dev.omcp.ports.sources.SourcesDocument;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.text.BackendText;
import dev.omcp.adapters.storage.files.OperatorTextFile;
import dev.omcp.adapters.storage.yaml.YamlExpansion;
import dev.omcp.adapters.storage.yaml.YamlProblem;
import dev.omcp.sdk.text.LogField;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.representer.Representer;

/**
 * The sources file as a {@link SourceStore}.
 *
 * <pre>
 * sources:
 *   - name: prod-prometheus
 *     type: prometheus
 *     url: https://prometheus.example.com
 *     tenant: acme              # optional
 *     enabled: true             # optional; ${PROM_ENABLED:-true} switches it per environment
 *     auth: {type: bearer, token: ${PROM_TOKEN}}
 *     metrics: {cpu: 'sum by ({{by}}) (rate(my_cpu_seconds_total{{{selector}}}[{{window}}]))'}
 * plugins:
 *   - {name: tempo, version: 1.2.0}
 * health:
 *   thresholds:             # overrides of the shipped health thresholds, per signal
 *     error_rate: {degraded: 0.02, critical: 0.1}
 *     latency_p99:
 *       degraded: ${P99_DEGRADED_MS:-300}   # a variable may carry a number
 *       critical: 1200
 *       weight: 3
 *     memory: {enabled: false}  # or "${MEMORY_ENABLED:-true}", as a source's enabled
 * </pre>
 *
 * <p>{@code enabled}, of a source and of a health signal alike, takes true or false, and yes/no or on/off in any case,
 * written plainly, quoted or through a {@code ${VAR}} ({@link SwitchField}). A setting written as {@code ${VAR}} takes
 * the type the configSchema of its connector declares there, a number or a boolean, once {@link #useSettingsSchemas}
 * said where to find the schemas ({@link TypedReference}); elsewhere it is text, as the environment holds it.
 *
 * <p>The {@code health: thresholds:} block mirrors the JSON of {@code /api/health/thresholds}; this
 * store turns it into JSON (a {@code ${VAR}} that substitutes to a number becomes that number) and
 * reports problems of shape, the core judges the values. {@link #thresholds()} writes it back when
 * the management API changes the thresholds.
 *
 * <p>Location: {@code CONFIG_PATH}, else {@code ./config/sources.yaml}; without a file the
 * environment sources apply and the first save creates the file. A file that cannot be read is
 * never overwritten. Writes go to a temp file in the same directory, are fsynced and renamed over
 * the old file with its permissions (0600 for a new file; an existing mode that lets the group or
 * others in is narrowed to 0600 once the file spells out a secret, {@link SourcesFileMode}); temp files
 * a write cut short left are removed at the first load ({@link StaleTempFiles}). A write
 * holds a lock on {@code <file>.lock} against other processes ({@link SourcesFileLock}) and is
 * refused when the file no longer holds what this store last read or wrote, rather than dropping
 * that change. A string that came from {@code ${VAR}}
 * and did not change is written back as {@code ${VAR}} (also in a list that gained or lost items;
 * likewise a number, and an {@code enabled} whose state did not change),
 * so secrets from the environment never reach the disk; any other string is written with each
 * {@code ${} as {@code $${}, so text from the API never becomes a reference into the environment.
 * Comments of a hand-written file are not kept on write-back. Thread-safe.
 */
public final class YamlSourceStore implements SourceStore {
    private static final Logger LOG = LoggerFactory.getLogger(YamlSourceStore.class);
    private static final int MAX_FILE_BYTES = 1 << 20;
    /**
     * What the file may hold once its aliases are expanded ({@link YamlExpansion}): four times what
     * it may hold written out, far more than anchors shared between a few sources need.
     */
    static final long MAX_EXPANDED_UNITS = 4 * MAX_FILE_BYTES;
    /** The keys of an entry that are the source's own fields; every other key is a setting. */
    private static final List<String> RESERVED = SourceDefinition.OWN_FIELDS;
    private static final String HEALTH = "health";
    private static final String THRESHOLDS = "thresholds";
    private static final String ENABLED = "enabled";
    /** The fields of a signal in the health block that take a number. */
    private static final Set<String> NUMERIC_FIELDS = Set.of("degraded", "critical", "weight");

    private final Path file;
    private final List<EnvironmentSource> environmentSources;
    private final Substitution substitution;
    private final TypedReference typedReference;
    /** The configSchema of each connector type, for settings written as {@code ${VAR}}; volatile as set after construction. */
    private volatile SettingsSchemas schemas = SettingsSchemas.NONE;
    /** Threads of this process take turns here first; {@link #fileLock} then keeps other processes out. */
    private final ReentrantLock lock = new ReentrantLock();
    private final SourcesFileLock fileLock;
    /**
     * SHA-256 of the text last read from or written to the file (empty: there was no file): a
     * different text at the next write means another process or an editor changed the file.
     * Written under {@link #lock}; volatile so that whether changes persist is answered without
     * waiting for a write that waits for {@link #fileLock}.
     */
    private volatile Optional<String> fingerprint = Optional.empty();
    private boolean warnedWithoutPermissions;
    /**
     * What the last load said about the file being missing or unreadable: the gateway loads at start
     * twice (the plugin pins, then the sources), and the same warning twice on standard error read as
     * two problems. A change of state is said again.
     */
    private Optional<String> lastFileWarning = Optional.empty();
    /** The variables already said to be ignored: for the same reason, once per variable. */
    private final Set<String> ignoredVariablesSaid = new HashSet<>();
    private Map<String, Object> document = new LinkedHashMap<>();
    private final Map<String, Map<String, Object>> rawEntries = new HashMap<>();
    private final List<Object> unreadableEntries = new ArrayList<>();
    /** Whether the file could be read at the last load; volatile for the same reason as {@link #fingerprint}. */
    private volatile boolean readable = true;
    /** Whether the first load looked for temp files a write cut short left ({@link StaleTempFiles}). */
    private boolean staleTempFilesChecked;
    /** Whether CONFIG_PATH named the file: then its absence is worth a line (a typo looks just like it). */
    private final boolean named;

    /**
     * @param configPath {@code CONFIG_PATH}, if set
     * @param workingDirectory where {@code ./config/sources.yaml} is looked for
     * @param environment the environment map the launcher read (for {@code ${VAR}})
     * @param environmentSources {@code PROMETHEUS_URL} / {@code LOKI_URL} sources, used only without a file
     */
    public YamlSourceStore(Optional<Path> configPath, Path workingDirectory, Map<String, String> environment,
            List<EnvironmentSource> environmentSources) {
        this(configPath, workingDirectory, environment, environmentSources, SourcesFileLock.DEFAULT_MAX_WAIT);
    }

    /** @param maxLockWait how long a write waits for another process's lock on the file (tests shorten it) */
    YamlSourceStore(Optional<Path> configPath, Path workingDirectory, Map<String, String> environment,
            List<EnvironmentSource> environmentSources, Duration maxLockWait) {
        this.file = configPath.orElse(workingDirectory.resolve("config").resolve("sources.yaml"));
        this.fileLock = new SourcesFileLock(file, maxLockWait);
        this.named = configPath.isPresent();
        this.environmentSources = List.copyOf(environmentSources);
        this.substitution = new Substitution(environment,
                name -> LOG.warn("event=sources-variable-unset variable={} effect=\"kept literally as ${{}}\"", name, name));
        this.typedReference = new TypedReference(substitution);
    }

    /**
     * Reads the settings of each source written as {@code ${VAR}} with the configSchema of its connector type from now
     * on ({@link TypedReference}). The gateway reads the file first for its plugin pins, before any plugin is loaded; it
     * calls this once the connector types are, so that the load that makes the sources knows their schemas.
     */
    public void useSettingsSchemas(SettingsSchemas schemas) {
        this.schemas = Objects.requireNonNull(schemas, "schemas");
    }

    @Override
    public String describe() {
        return Files.exists(file) ? "sources file " + file.getFileName() : "environment";
    }

    @Override
    public SourcesDocument load() {
        lock.lock();
        try {
            if (!staleTempFilesChecked) {
                staleTempFilesChecked = true; // at start: later loads would find only what a running write makes
                StaleTempFiles.removeNextTo(file);
            }
            rawEntries.clear();
            unreadableEntries.clear();
            if (!Files.exists(file)) {
                readable = true;
                document = new LinkedHashMap<>();
                fingerprint = Optional.empty();
                if (named && firstTimeSaid("missing")) {
                    LOG.warn("event=sources-file-missing file={} effect=\"sources from PROMETHEUS_URL and LOKI_URL, if set; the first "
                            + "change through /api/sources creates the file\" hint=\"check CONFIG_PATH if the file should exist\"", file);
                }
                return fromEnvironment();
            }
            String text;
            switch (OperatorTextFile.read(file, MAX_FILE_BYTES)) {
                case OperatorTextFile.Read.Text read -> text = read.text();
                case OperatorTextFile.Read.Unusable unusable -> {
                    return unreadable("the sources file " + unusable.reason());
                }
            }
            fingerprint = Optional.of(fingerprint(text));
            try {
                Object loaded = yaml().load(text);
                if (!YamlExpansion.within(loaded, MAX_EXPANDED_UNITS)) {
                    return unreadable("the sources file expands to more than " + (MAX_EXPANDED_UNITS >> 20) + " MiB through its aliases "
                            + "(*name); write the repeated values out, or repeat fewer of them");
                }
                if (loaded == null) {
                    loaded = new LinkedHashMap<String, Object>();
                }
                if (!(loaded instanceof Map<?, ?> map)) {
                    return unreadable("the sources file must be a YAML mapping with a 'sources' list");
                }
                document = new LinkedHashMap<>();
                map.forEach((k, v) -> document.put(String.valueOf(k), v));
                readable = true;
                lastFileWarning = Optional.empty();
                warnOfIgnoredEnvironmentSources(text);
                return parse();
            } catch (YAMLException e) {
                // duplicate keys are refused too: which of two 'url:' lines the operator meant is a guess
                return unreadable("the sources file is not valid YAML " + YamlProblem.describe(e));
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * With a sources file, {@code PROMETHEUS_URL} and {@code LOKI_URL} make no sources of their own:
     * the file alone says what the sources are. An operator who set one of them (or changed it) after
     * the file came to be, for example after the first change through {@code /api/sources} created
     * it, would otherwise wonder why the gateway does not use it. A variable the file references as
     * {@code ${NAME}} is used through that reference and is not reported.
     */
    private void warnOfIgnoredEnvironmentSources(String fileText) {
        for (EnvironmentSource env : environmentSources) {
            if (!env.urls().isEmpty() && !fileText.contains("${" + env.variable() + "}") && ignoredVariablesSaid.add(env.variable())) {
                LOG.warn("event=environment-source-ignored variable={} file={} reason=\"the sources file exists, and it alone defines "
                        + "the sources\" hint=\"add the source to the file or through /api/sources (url: ${{}} keeps it following the "
                        + "variable), or unset {}\"", env.variable(), file, env.variable(), env.variable());
            }
        }
    }

    /** Whether {@code warning} differs from what the last load said about the file; either way it is what was said last. */
    private boolean firstTimeSaid(String warning) {
        boolean first = !lastFileWarning.equals(Optional.of(warning));
        lastFileWarning = Optional.of(warning);
        return first;
    }

    private SourcesDocument unreadable(String reason) {
        readable = false;
        if (!firstTimeSaid("unreadable: " + reason)) {
            return new SourcesDocument(List.of(), List.of(), List.of(reason), false);
        }
        LOG.error("event=sources-file-unreadable file={} reason=\"{}\" effect=\"no sources from the file; it will not be overwritten\""
                + " hint=\"fix the file and restart the gateway\"", file, LogField.of(reason));
        return new SourcesDocument(List.of(), List.of(), List.of(reason), false);
    }

    private SourcesDocument fromEnvironment() {
        List<SourceDefinition> sources = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (EnvironmentSource env : environmentSources) {
            for (int i = 0; i < env.urls().size(); i++) {
                String name = env.urls().size() == 1 ? env.type() : env.type() + "-" + (i + 1);
                String url = env.urls().get(i);
                Map<String, Object> raw = new LinkedHashMap<>();
                raw.put("name", name);
                raw.put("type", env.type());
                raw.put("url", env.urls().size() == 1 ? "${" + env.variable() + "}" : url);
                rawEntries.put(name, raw);
                sources.add(new SourceDefinition(new SourceConfig(name, env.type(), url, "", JsonValue.EMPTY_JSON_OBJECT), true,
                        SourceDefinition.Origin.ENVIRONMENT));
            }
        }
        return new SourcesDocument(sources, List.of(), problems, true);
    }

    private SourcesDocument parse() {
        List<String> problems = new ArrayList<>();
        List<SourceDefinition> sources = new ArrayList<>();
        Object list = document.get("sources");
        if (list != null && !(list instanceof List<?>)) {
            problems.add("'sources' must be a list of source entries");
        } else if (list != null) {
            Set<String> names = new HashSet<>();
            int index = 0;
            for (Object item : (List<?>) list) {
                index++;
                try {
                    SourceDefinition definition = entry(item, index);
                    if (!names.add(definition.name())) {
                        throw new IllegalArgumentException("the name '" + definition.name() + "' is used twice; names must be unique");
                    }
                    sources.add(definition);
                    rawEntries.put(definition.name(), asStringMap(item));
                } catch (IllegalArgumentException e) {
                    problems.add("sources entry " + index + ": " + e.getMessage());
                    unreadableEntries.add(item);
                }
            }
        }
        return new SourcesDocument(sources, pins(problems), problems, true, healthThresholds());
    }

    /** The {@code health: thresholds:} block as JSON, or every problem of shape with its path. */
    private StoredThresholds healthThresholds() {
        Object health = document.get(HEALTH);
        if (health == null) {
            return StoredThresholds.absent();
        }
        if (!(health instanceof Map<?, ?> block)) {
            return new StoredThresholds.Unreadable(List.of(HEALTH + ": must be a mapping with a '" + THRESHOLDS
                    + "' mapping of signal to {degraded, critical, weight, enabled}"));
        }
        List<String> errors = new ArrayList<>();
        for (Object key : block.keySet()) {
            if (!THRESHOLDS.equals(key)) {
                errors.add(HEALTH + "." + quotedKey(key) + ": unknown key; the health block holds '" + THRESHOLDS + "' only");
            }
        }
        Object thresholds = block.get(THRESHOLDS);
        if (thresholds != null && !(thresholds instanceof Map<?, ?>)) {
            errors.add(HEALTH + "." + THRESHOLDS + ": must be a mapping of signal to {degraded, critical, weight, enabled}");
        }
        JsonObject overrides = JsonValue.EMPTY_JSON_OBJECT;
        if (thresholds instanceof Map<?, ?> map) {
            try {
                overrides = thresholdsJson(map, HEALTH + "." + THRESHOLDS, errors);
            } catch (IllegalArgumentException e) {
                errors.add(HEALTH + "." + THRESHOLDS + ": " + e.getMessage());
            }
        }
        if (!errors.isEmpty()) {
            return new StoredThresholds.Unreadable(errors);
        }
        return thresholds == null ? StoredThresholds.absent() : new StoredThresholds.Found(overrides);
    }

    /**
     * The thresholds as JSON. Values stay as YAML typed them (a quoted number stays a string, which
     * the core refuses), except that a string holding a {@code ${VAR}} reference that substitutes
     * to a number becomes that number: the environment has no other way to carry one. {@code enabled}
     * is read as a source's is ({@link SwitchField}), so that its problem names the variable.
     */
    private JsonObject thresholdsJson(Map<?, ?> map, String path, List<String> errors) {
        JsonObjectBuilder out = Jsonp.object();
        asStringMap(map).forEach((signal, fields) -> {
            if (fields instanceof Map<?, ?> fieldMap) {
                JsonObjectBuilder signalJson = Jsonp.object();
                asStringMap(fieldMap).forEach((field, value) -> {
                    String where = path + "." + quotedKey(signal) + "." + quotedKey(field);
                    if (ENABLED.equals(field)) {
                        // read as a source's enabled is: the core's "must be true or false" would name no variable
                        try {
                            signalJson.add(field, SwitchField.read(value, substitution));
                        } catch (IllegalArgumentException e) {
                            errors.add(where + ": " + e.getMessage());
                        }
                    } else if (value instanceof String text && Substitution.hasReference(text)) {
                        String substituted = substitution.apply(text).strip();
                        Optional<BigDecimal> number = DecimalText.parse(substituted);
                        if (number.isEmpty() && NUMERIC_FIELDS.contains(field)) {
                            // the core's "must be a number" would not say which variable is missing or wrong
                            errors.add(where + ": "
                                    + UnusableReference.describe(substitution, text, substituted, UnusableReference.NUMBER));
                        } else {
                            signalJson.add(field, number.<JsonValue>map(Jsonp::value).orElseGet(() -> Jsonp.value(substituted)));
                        }
                    } else {
                        try {
                            signalJson.add(field, json(value, where));
                        } catch (IllegalArgumentException e) {
                            errors.add(where + ": " + e.getMessage());
                        }
                    }
                });
                out.add(signal, signalJson);
            } else {
                try {
                    // not a mapping: passed on so the core names what a signal needs
                    out.add(signal, json(fields, path + "." + quotedKey(signal)));
                } catch (IllegalArgumentException e) {
                    errors.add(path + "." + quotedKey(signal) + ": " + e.getMessage());
                }
            }
        });
        return out.build();
    }

    /**
     * A key of the health block as a problem quotes it: the start-refused message and its log line
     * print it, so a key (quoted YAML may hold line breaks and escapes) stays one printable line, cut.
     */
    private static String quotedKey(Object key) {
        return BackendText.quoted(key, 64);
    }

    private List<PluginPin> pins(List<String> problems) {
        List<PluginPin> pins = new ArrayList<>();
        Object block = document.get("plugins");
        if (block == null) {
            return pins;
        }
        if (!(block instanceof List<?> list)) {
            problems.add("'plugins' must be a list of {name, version}");
            return pins;
        }
        int index = 0;
        for (Object item : list) {
            index++;
            if (item instanceof Map<?, ?> m && m.get("name") instanceof String name && m.get("version") instanceof Number) {
                // YAML reads version: 1.10 as the number 1.1; naming '1.1' would name a version nobody wrote
                problems.add("plugins entry " + index + ": 'version' of '" + name + "' is a number to YAML; write the exact semantic "
                        + "version in quotes, for example version: \"1.2.0\"");
            } else if (item instanceof Map<?, ?> m && m.get("name") instanceof String name && m.get("version") != null) {
                try {
                    pins.add(new PluginPin(substitution.apply(name), substitution.apply(String.valueOf(m.get("version")))));
                } catch (IllegalArgumentException e) {
                    problems.add("plugins entry " + index + ": " + e.getMessage());
                }
            } else {
                problems.add("plugins entry " + index + " must have a name and a version");
            }
        }
        return pins;
    }

    private SourceDefinition entry(Object item, int index) {
        if (!(item instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("must be a mapping with name, type and url");
        }
        Map<String, Object> raw = asStringMap(map);
        String name = requiredString(raw, "name");
        String type = requiredString(raw, "type");
        String url = optionalString(raw, "url");
        String tenant = optionalString(raw, "tenant");
        boolean enabled;
        try {
            enabled = SwitchField.read(raw.getOrDefault(ENABLED, Boolean.TRUE), substitution);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + ENABLED + "': " + e.getMessage(), e);
        }
        SchemaPlace schema = SchemaPlace.of(schemas.of(type));
        JsonObjectBuilder settings = Jsonp.object();
        raw.forEach((k, v) -> {
            if (!RESERVED.contains(k)) {
                settings.add(k, json(v, k, schema.property(k), type));
            }
        });
        return new SourceDefinition(new SourceConfig(name, type, url, tenant, settings.build()), enabled,
                SourceDefinition.Origin.FILE);
    }

    /** The state a {@code ${VAR}} reference written for {@code enabled} gives now, if it is one that gives a state. */
    private Optional<Boolean> stateFrom(Object written) {
        return written instanceof String text && Substitution.hasReference(text)
                ? SwitchText.parse(substitution.apply(text)) : Optional.empty();
    }

    private String requiredString(Map<String, Object> raw, String key) {
        String value = optionalString(raw, key);
        if (value.isBlank()) {
            throw new IllegalArgumentException("'" + key + "' is required");
        }
        return value;
    }

    private String optionalString(Map<String, Object> raw, String key) {
        Object v = raw.get(key);
        if (v == null) {
            return "";
        }
        if (!(v instanceof String s)) {
            throw new IllegalArgumentException("'" + key + "' must be a string");
        }
        return substitution.apply(s).strip();
    }

    private JsonValue json(Object value, String path) {
        return json(value, path, SchemaPlace.NONE, "");
    }

    /**
     * {@code value} as JSON; a {@code ${VAR}} string at a {@code place} of the configSchema of {@code connectorType} that
     * declares a number or a boolean becomes one ({@link TypedReference}).
     */
    private JsonValue json(Object value, String path, SchemaPlace place, String connectorType) {
        if (value == null) {
            return JsonValue.NULL;
        }
        if (value instanceof String s) {
            Optional<JsonValue> typed = typedReference.read(s, place, path, connectorType);
            return typed.orElseGet(() -> Jsonp.value(substitution.apply(s)));
        }
        if (value instanceof Boolean b) {
            return b ? JsonValue.TRUE : JsonValue.FALSE;
        }
        if (value instanceof Integer || value instanceof Long) {
            return Jsonp.value(((Number) value).longValue());
        }
        if (value instanceof BigInteger bi) {
            return Jsonp.value(bi);
        }
        if (value instanceof Double || value instanceof Float) {
            double number = ((Number) value).doubleValue();
            if (!Double.isFinite(number)) {
                // JSON has no such number; the JSON library's own "Infinite or NaN" named neither the key nor the fix
                throw new IllegalArgumentException("'" + path + "' is not a finite number (.nan, .inf, or too large for a double); "
                        + "write a number such as 0.5");
            }
            return Jsonp.value(number);
        }
        if (value instanceof Map<?, ?> map) {
            JsonObjectBuilder out = Jsonp.object();
            asStringMap(map).forEach((k, v) -> out.add(k, json(v, path + "." + k, place.property(k), connectorType)));
            return out.build();
        }
        if (value instanceof List<?> list) {
            JsonArrayBuilder out = Jsonp.array();
            list.forEach(v -> out.add(json(v, path + "[]", place.items(), connectorType)));
            return out.build();
        }
        throw new IllegalArgumentException("'" + path + "' has a value of an unsupported YAML type (dates and binary are not settings)");
    }

    private static Map<String, Object> asStringMap(Object value) {
        Map<String, Object> out = new LinkedHashMap<>();
        ((Map<?, ?>) value).forEach((k, v) -> {
            if (!(k instanceof String key)) {
                throw new IllegalArgumentException("keys must be strings");
            }
            out.put(key, v);
        });
        return out;
    }

    @Override
    public void save(List<SourceDefinition> sources) throws SourceStoreException {
        lock.lock();
        try {
            if (!readable) {
                throw new SourceStoreException("the sources file could not be read at start, so it is not overwritten; fix it and restart");
            }
            refuseToUncoverSkippedEntries(sources);
            List<Object> entries = new ArrayList<>();
            Map<String, Map<String, Object>> written = new HashMap<>();
            for (SourceDefinition d : sources) {
                Map<String, Object> entry = entry(d, rawEntries.getOrDefault(d.name(), Map.of()));
                entries.add(entry);
                written.put(d.name(), entry);
            }
            entries.addAll(unreadableEntries);
            Map<String, Object> next = new LinkedHashMap<>(document);
            next.put("sources", entries);
            write(next);
            document = next;
            rawEntries.clear();
            rawEntries.putAll(written);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Refuses to remove a source while an entry the last load skipped has the same name (a second {@code prom}): the file
     * would then hold that entry alone, and the next start would load it, perhaps with another URL, as the source the
     * operator just removed. Dropping the skipped entry instead would lose what the operator wrote there, unseen.
     */
    private void refuseToUncoverSkippedEntries(List<SourceDefinition> sources) throws SourceStoreException {
        Set<String> kept = new HashSet<>();
        sources.forEach(d -> kept.add(d.name()));
        for (Object skipped : unreadableEntries) {
            Optional<String> name = nameOf(skipped);
            if (name.isPresent() && rawEntries.containsKey(name.get()) && !kept.contains(name.get())) {
                String quoted = BackendText.quoted(name.get(), 64);
                throw SourceStoreException.conflict(whereIs(skipped) + " also has the name '" + quoted + "' and was skipped when "
                        + "the file was read; removing the source '" + quoted + "' would let that entry define it at the next "
                        + "start, so nothing was written: fix the file (delete or rename that entry), restart the gateway, then "
                        + "remove the source again");
            }
        }
    }

    /** The name an entry gives, as {@link #entry(Object, int)} would read it, when it gives one. */
    private Optional<String> nameOf(Object item) {
        if (item instanceof Map<?, ?> map && map.get("name") instanceof String name) {
            return Optional.of(substitution.apply(name).strip());
        }
        return Optional.empty();
    }

    /** "sources entry 3 (line 8)": where {@code item} stands in the file as last read or written. */
    private String whereIs(Object item) {
        int index = -1;
        if (document.get("sources") instanceof List<?> list) {
            for (int i = 0; i < list.size() && index < 0; i++) {
                index = list.get(i) == item ? i : -1;
            }
        }
        if (index < 0) {
            return "an entry of the sources file";
        }
        return "sources entry " + (index + 1) + SourcesEntryLines.lineOf(file, MAX_FILE_BYTES, index).map(l -> " (line " + l + ")")
                .orElse("");
    }

    private Map<String, Object> entry(SourceDefinition d, Map<String, Object> raw) {
        SourceConfig c = d.config();
        List<String> shadowing = RESERVED.stream().filter(c.settings()::containsKey).map(field -> "settings." + field).toList();
        if (!shadowing.isEmpty()) {
            // the management API refuses these; an embedder that calls the store directly must not get a file whose next
            // read gives the source another URL, tenant, name or state than the one saved
            throw new IllegalArgumentException("source '" + BackendText.quoted(c.name(), 64) + "': " + String.join(", ", shadowing)
                    + " would replace the source's own field in the sources file (" + String.join(", ", RESERVED) + " go beside "
                    + "the settings, never inside them); nothing was written");
        }
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", Substitution.escape(c.name()));
        entry.put("type", Substitution.escape(c.type()));
        if (!c.url().isEmpty()) {
            entry.put("url", restore(Jsonp.value(c.url()), raw.get("url")));
        }
        if (!c.tenant().isEmpty()) {
            entry.put("tenant", restore(Jsonp.value(c.tenant()), raw.get("tenant")));
        }
        if (stateFrom(raw.get(ENABLED)).equals(Optional.of(d.enabled()))) {
            entry.put(ENABLED, raw.get(ENABLED)); // the state still follows the variable, as the operator wrote it
        } else if (!d.enabled()) {
            entry.put(ENABLED, false);
        }
        c.settings().forEach((k, v) -> entry.put(k, restore(v, raw.get(k))));
        return entry;
    }

    /** The YAML value for {@code value}, keeping the {@code ${VAR}} text of a string that came from it unchanged. */
    private Object restore(JsonValue value, Object raw) {
        switch (value.getValueType()) {
            case STRING -> {
                String s = ((JsonString) value).getString();
                if (raw instanceof String r && Substitution.hasReference(r) && substitution.apply(r).equals(s)) {
                    return r;
                }
                // a new value (from the API) means what it says: a ${NAME} in it must not reach into the
                // environment at the next start
                return Substitution.escape(s);
            }
            case NUMBER -> {
                JsonNumber n = (JsonNumber) value;
                if (raw instanceof String r && Substitution.hasReference(r)
                        && DecimalText.parse(substitution.apply(r)).filter(d -> d.compareTo(n.bigDecimalValue()) == 0).isPresent()) {
                    return r; // a number that came from ${VAR} and did not change keeps its reference
                }
                return n.isIntegral() ? (Object) n.longValueExact() : (Object) n.bigDecimalValue().doubleValue();
            }
            case TRUE, FALSE -> {
                boolean state = value.getValueType() == JsonValue.ValueType.TRUE;
                if (raw instanceof String r && Substitution.hasReference(r)
                        && SwitchText.parse(substitution.apply(r)).equals(Optional.of(state))) {
                    return r; // a state that came from ${VAR} and did not change keeps its reference
                }
                return state;
            }
            case NULL -> {
                return null;
            }
            case OBJECT -> {
                Map<String, Object> out = new LinkedHashMap<>();
                Map<?, ?> rawMap = raw instanceof Map<?, ?> m ? m : Map.of();
                value.asJsonObject().forEach((k, v) -> out.put(k, restore(v, rawMap.get(k))));
                return out;
            }
            case ARRAY -> {
                List<Object> out = new ArrayList<>();
                List<?> rawList = raw instanceof List<?> l ? l : List.of();
                boolean aligned = rawList.size() == value.asJsonArray().size();
                for (int i = 0; i < value.asJsonArray().size(); i++) {
                    JsonValue item = value.asJsonArray().get(i);
                    // an item added or removed shifts the others: find a string's reference by what it substitutes to
                    out.add(restore(item, aligned ? rawList.get(i) : referenceFor(item, rawList)));
                }
                return out;
            }
            default -> throw new IllegalStateException("unknown JSON type " + value.getValueType());
        }
    }

    /** The item of {@code rawList} holding a reference that substitutes to the string {@code item}, else null. */
    private Object referenceFor(JsonValue item, List<?> rawList) {
        if (!(item instanceof JsonString text)) {
            return null;
        }
        for (Object raw : rawList) {
            if (raw instanceof String r && Substitution.hasReference(r) && substitution.apply(r).equals(text.getString())) {
                return r;
            }
        }
        return null;
    }

    /**
     * The health thresholds' side of the file: {@link HealthThresholdsStore#save} rewrites the
     * {@code health: thresholds:} block atomically and keeps the rest of the file (sources,
     * {@code plugins:}, {@code ${VAR}} references) as it was. Changes persist only while a readable
     * sources file exists: without one, writing a file holding just the thresholds would hide the
     * {@code PROMETHEUS_URL} / {@code LOKI_URL} sources at the next start.
     */
    public HealthThresholdsStore thresholds() {
        // persistent() and describe() answer GET /api/settings and GET /api/health/thresholds: they read volatile
        // state and never take the store's lock, which a write holds while it waits up to 10 s for the file's lock
        return new HealthThresholdsStore() {
            @Override
            public boolean persistent() {
                return readable && fileInUse();
            }

            @Override
            public String describe() {
                if (!fileInUse()) {
                    return "no sources file is in use (CONFIG_PATH, else ./config/sources.yaml), so there is nowhere to keep them";
                }
                if (!readable) {
                    return "the sources file could not be read at start, so it is never overwritten; fix it and restart";
                }
                return fingerprint.isPresent() && !Files.exists(file, LinkOption.NOFOLLOW_LINKS)
                        ? "the sources file " + file.getFileName() + ", which was deleted since this gateway read it (changes are "
                                + "refused until it is back and the gateway restarted)"
                        : "the sources file " + file.getFileName();
            }

            @Override
            public void save(JsonObject overrides) throws SettingsStoreException {
                saveThresholds(overrides);
            }
        };
    }

    /**
     * Whether the operator has a sources file: one exists, or this store read or wrote one. A file
     * deleted since then still counts, so that a threshold change is refused like a source change
     * ({@link #checkUnchangedSinceRead}) rather than kept in memory only without a word.
     */
    private boolean fileInUse() {
        return fingerprint.isPresent() || Files.exists(file);
    }

    private void saveThresholds(JsonObject overrides) throws SettingsStoreException {
        lock.lock();
        try {
            if (!readable) {
                throw new SettingsStoreException("the sources file could not be read at start, so it is not overwritten; fix it and restart");
            }
            if (!fileInUse()) {
                throw new SettingsStoreException("no sources file is in use");
            }
            Map<String, Object> next = new LinkedHashMap<>(document);
            Map<String, Object> health = document.get(HEALTH) instanceof Map<?, ?> m ? asStringMap(m) : new LinkedHashMap<>();
            if (overrides.isEmpty()) {
                health.remove(THRESHOLDS);
            } else {
                health.put(THRESHOLDS, restore(overrides, health.get(THRESHOLDS)));
            }
            if (health.isEmpty()) {
                next.remove(HEALTH);
            } else {
                next.put(HEALTH, health);
            }
            try {
                write(next);
            } catch (SourceStoreException e) {
                throw new SettingsStoreException(e.getMessage());
            }
            document = next;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Refuses a text the next start could not read ({@link #load()}'s limits: 1 MiB, the nesting
     * and alias bounds): writing it would leave the gateway with no sources after a restart and a
     * file it never overwrites.
     */
    private void checkReadableAtNextStart(String text) throws SourceStoreException {
        long bytes = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_FILE_BYTES) {
            throw new SourceStoreException("the sources file would be " + bytes + " bytes, more than the 1 MiB the gateway reads at "
                    + "start; nothing was written: make the settings smaller");
        }
        try {
            yaml().load(text);
        } catch (YAMLException e) {
            throw new SourceStoreException("the sources file would not be readable at the next start: it would not be valid YAML "
                    + YamlProblem.describe(e) + "; nothing was written: make the settings flatter");
        }
    }

    /**
     * Writes {@code next} as the whole file, atomically, holding {@link #fileLock} for the
     * read-modify-write: the file must still hold what this store last read or wrote, or the write
     * would drop another process's change (the API answers with the reason; nothing changes).
     */
    private void write(Map<String, Object> next) throws SourceStoreException {
        String text = yaml().dump(next);
        checkReadableAtNextStart(text);
        Path dir = file.toAbsolutePath().getParent();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw cannotBeWritten(e);
        }
        if (Files.isSymbolicLink(file)) {
            // Renaming over a link would replace the link and leave the file it names unchanged (and the
            // next start reading a different file than the operator edits); a ConfigMap mount is one.
            throw new SourceStoreException("the sources file is a symbolic link (as a mounted Kubernetes ConfigMap"
                    + " makes it); the gateway does not replace a link, so nothing was written: change the file it"
                    + " points at, or point CONFIG_PATH at a regular file to manage sources through the API");
        }
        try (SourcesFileLock.Held held = fileLock.acquire()) {
            checkUnchangedSinceRead();
            replace(dir, text, LiteralSecrets.in(next));
        }
    }

    private void checkUnchangedSinceRead() throws SourceStoreException {
        Optional<String> now;
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            now = Optional.empty();
        } else {
            switch (OperatorTextFile.read(file, MAX_FILE_BYTES)) {
                case OperatorTextFile.Read.Text read -> now = Optional.of(fingerprint(read.text()));
                case OperatorTextFile.Read.Unusable unusable -> throw new SourceStoreException("the sources file " + unusable.reason()
                        + " now; nothing was written");
            }
        }
        if (now.isEmpty() && fingerprint.isPresent()) {
            // writing now would create the file anew and undo the deletion unseen
            throw new SourceStoreException("the sources file was deleted since this gateway read it (by another process or by hand);"
                    + " nothing was written: put the file back and restart the gateway to change it through the API again (without"
                    + " a file a restart runs on PROMETHEUS_URL, LOKI_URL and the shipped health thresholds)");
        }
        if (!now.equals(fingerprint)) {
            throw new SourceStoreException("the sources file was " + (fingerprint.isEmpty() ? "created" : "changed") + " by another"
                    + " process or by hand since this gateway read it; nothing was written, so that change is kept: restart the"
                    + " gateway to read the file again, then repeat this change");
        }
    }

    /** Temp file in the same directory, fsync, rename over the old file: a crash leaves the old or the new file, never half. */
    private void replace(Path dir, String text, boolean literalSecret) throws SourceStoreException {
        Path temp = null;
        try {
            boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
            SourcesFileMode mode = posix
                    ? SourcesFileMode.decide(Files.exists(file, LinkOption.NOFOLLOW_LINKS)
                            ? Optional.of(Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS)) : Optional.empty(), literalSecret)
                    : SourcesFileMode.withoutPermissions();
            temp = mode.permissions().isPresent()
                    ? Files.createTempFile(dir, ".sources-", ".tmp", PosixFilePermissions.asFileAttribute(mode.permissions().get()))
                    : Files.createTempFile(dir, ".sources-", ".tmp");
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING,
                    LinkOption.NOFOLLOW_LINKS)) {
                ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                channel.force(true);
            }
            if (mode.permissions().isPresent()) {
                Files.setPosixFilePermissions(temp, mode.permissions().get()); // the umask may have narrowed them
            }
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new SourceStoreException("the sources file's directory does not support atomic renames; nothing was written");
            }
            temp = null;
            fingerprint = Optional.of(fingerprint(text));
            try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
                directory.force(true);
            } catch (IOException e) {
                LOG.debug("event=sources-dir-fsync-unsupported error={}", e.getClass().getSimpleName());
            }
            LOG.info("event=sources-file-written file={}", file.getFileName());
            mode.narrowedFrom().ifPresent(from -> LOG.warn("event=sources-file-mode-narrowed file={} from={} to={} reason=\"the file"
                    + " now holds a secret written out (a password, token or header value, not a ${VAR} reference); other users of"
                    + " the host must not read it\" hint=\"to keep a group-readable file, set secrets as ${VAR} references\"", file,
                    PosixFilePermissions.toString(from), PosixFilePermissions.toString(SourcesFileMode.OWNER_ONLY)));
            if (!posix && literalSecret && !warnedWithoutPermissions) {
                warnedWithoutPermissions = true;
                LOG.warn("event=sources-file-mode-unchanged file={} reason=\"the file holds a secret written out, and its file system"
                        + " has no POSIX permissions to narrow\" effect=\"the directory's access list applies\" hint=\"let only the"
                        + " gateway's user read the directory, or set secrets as ${VAR} references\"", file);
            }
        } catch (IOException | UnsupportedOperationException e) {
            throw cannotBeWritten(e);
        } finally {
            if (temp != null) {
                try {
                    Files.deleteIfExists(temp);
                } catch (IOException e) {
                    LOG.warn("event=sources-temp-left error={}", e.getClass().getSimpleName());
                }
            }
        }
    }

    private static SourceStoreException cannotBeWritten(Exception e) {
        String reason = e instanceof FileSystemException fse && fse.getReason() != null ? ": " + fse.getReason() : "";
        return new SourceStoreException("the sources file cannot be written (" + e.getClass().getSimpleName() + reason + ")");
    }

    private static String fingerprint(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static Yaml yaml() {
        LoaderOptions loader = new LoaderOptions();
        loader.setAllowDuplicateKeys(false);
        loader.setMaxAliasesForCollections(20);
        loader.setNestingDepthLimit(50);
        loader.setCodePointLimit(MAX_FILE_BYTES);
        DumperOptions dumper = new DumperOptions();
        dumper.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        dumper.setIndicatorIndent(2);
        dumper.setIndentWithIndicator(true);
        dumper.setWidth(200);
        return new Yaml(new SafeConstructor(loader), new Representer(dumper), dumper, loader);
    }

    /** For tests and messages: the file this store reads and writes. */
    Path file() {
        return Objects.requireNonNull(file);
    }

}
