package dev.omcp.app.settings;

import dev.omcp.adapters.storage.anomaly.ExternalLabels;
import dev.omcp.core.egress.EgressRules;
import dev.omcp.core.ipenrich.DatasetLoad;
import dev.omcp.core.ipenrich.IpDatasetParser;
import dev.omcp.core.tools.observability.ServiceCatalog;
import dev.omcp.ports.egress.EgressVerdict;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParsingException;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Reads the analysis variables (catalog, redaction, anomaly remote write, IP enrichment, post-mortem
 * template). The catalog and the IP dataset are read and validated here, so a broken file is
 * reported with every other invalid setting; every problem goes to the shared {@link Environment}.
 */
final class AnalysisSettingsReader {
    /** The largest catalog accepted: far beyond any real one, small enough to parse at start. */
    static final int MAX_CATALOG_CHARS = 16 * 1024 * 1024;
    /** No more characters than that can take more bytes than this (UTF-8 spends at most 4 on one), so a larger file is not read. */
    static final long MAX_CATALOG_BYTES = 4L * MAX_CATALOG_CHARS;
    /**
     * The largest IP dataset read: room for every row the parser accepts at a realistic width (10
     * million networks of about 25 bytes each) and for a few million rows of a wide export, while a
     * wrong file (a log, a disk image) is refused from its size alone instead of being parsed.
     */
    static final long MAX_IP_DATASET_BYTES = 256L * 1024 * 1024;
    /** How many bad rows of an IP dataset one message lists (the count is always exact). */
    static final int SHOWN_ROW_ERRORS = 10;
    /** Heap a dataset takes while it loads, measured with four columns; about half of it stays once loaded. */
    static final int HEAP_MIB_PER_MILLION_ROWS = 200;
    private static final JsonReaderFactory STRICT_JSON = Jsonp.readerFactory(Map.of("org.eclipse.parsson.rejectDuplicateKeys", true));

    private AnalysisSettingsReader() {}

    /** @param egress the rules of {@code OMCP_ALLOW_PRIVATE_BACKENDS} and {@code OMCP_NAT64_PREFIXES} the URLs are judged by */
    static AnalysisSettings read(Environment env, EgressRules egress, SettingsFiles files) {
        return new AnalysisSettings(
                catalog(env, files),
                redaction(env),
                remoteWrite(env, egress),
                ipDataset(env, files),
                rdap(env, egress),
                env.file(Variables.POSTMORTEM_TEMPLATE));
    }

    private static AnalysisSettings.CatalogFile catalog(Environment env, SettingsFiles files) {
        Optional<Path> path = env.file(Variables.SERVICE_CATALOG_FILE);
        if (path.isEmpty()) {
            return new AnalysisSettings.CatalogFile.NotSet();
        }
        Variable variable = Variables.SERVICE_CATALOG_FILE;
        String text;
        try (Reader reader = files.open(path.get(), MAX_CATALOG_BYTES)) {
            StringBuilder read = new StringBuilder();
            char[] chunk = new char[8192];
            for (int n = reader.read(chunk); n >= 0; n = reader.read(chunk)) {
                read.append(chunk, 0, n);
                if (read.length() > MAX_CATALOG_CHARS) {
                    env.problem(variable, path.get() + " is larger than " + MAX_CATALOG_CHARS / (1024 * 1024)
                            + " MiB; a catalog lists services, not their history");
                    return new AnalysisSettings.CatalogFile.NotSet();
                }
            }
            text = read.toString();
        } catch (NoSuchFileException e) {
            // spec 2.11: a missing file means an empty catalog and no enrichment
            return new AnalysisSettings.CatalogFile.Missing(path.get());
        } catch (SettingsFiles.TooLarge e) {
            env.problem(variable, e.getMessage() + "; a catalog lists services, not their history");
            return new AnalysisSettings.CatalogFile.NotSet();
        } catch (IOException e) {
            env.problem(variable, path.get() + " cannot be read: " + readFailure(e));
            return new AnalysisSettings.CatalogFile.NotSet();
        }
        if (text.isBlank()) {
            // the JSON reader's words for it ("Invalid token=EOF ... Expected tokens are: [CURLYOPEN, ...]") say nothing to an operator
            env.problem(variable, path.get() + " is empty; write a catalog in it ({\"services\": {}} lists no service yet), or unset "
                    + "the variable");
            return new AnalysisSettings.CatalogFile.NotSet();
        }
        JsonValue document;
        try (JsonReader reader = STRICT_JSON.createReader(new StringReader(text))) {
            document = reader.readValue();
        } catch (JsonParsingException e) {
            env.problem(variable, path.get() + " is not valid JSON (line " + e.getLocation().getLineNumber() + ", column "
                    + e.getLocation().getColumnNumber() + "): " + e.getMessage());
            return new AnalysisSettings.CatalogFile.NotSet();
        } catch (JsonException e) {
            env.problem(variable, path.get() + " is not valid JSON: " + e.getMessage());
            return new AnalysisSettings.CatalogFile.NotSet();
        }
        if (!(document instanceof JsonObject object)) {
            env.problem(variable, path.get() + " must hold a JSON object {\"services\": ...}, not a " + document.getValueType()
                    .toString().toLowerCase(Locale.ROOT));
            return new AnalysisSettings.CatalogFile.NotSet();
        }
        return switch (ServiceCatalog.parse(object)) {
            case ServiceCatalog.Parsed.Loaded loaded -> new AnalysisSettings.CatalogFile.Loaded(path.get(), loaded.catalog());
            case ServiceCatalog.Parsed.Rejected rejected -> {
                rejected.problems().forEach(p -> env.problem(variable, path.get() + ": " + p));
                yield new AnalysisSettings.CatalogFile.NotSet();
            }
        };
    }

    /** The shared switch: a typo is refused, never read as off, so it cannot switch redaction off (spec 5.7). */
    private static boolean redaction(Environment env) {
        return env.flag(Variables.REDACTION);
    }

    private static Optional<AnalysisSettings.RemoteWrite> remoteWrite(Environment env, EgressRules egress) {
        Optional<String> url = env.raw(Variables.ANOMALY_REMOTE_WRITE);
        Optional<String> token = env.raw(Variables.ANOMALY_REMOTE_WRITE_BEARER_TOKEN);
        Optional<String> username = env.raw(Variables.ANOMALY_REMOTE_WRITE_USERNAME);
        Optional<String> password = env.raw(Variables.ANOMALY_REMOTE_WRITE_PASSWORD);
        Optional<String> external = env.raw(Variables.ANOMALY_HISTORY_EXTERNAL_LABELS);
        if (url.isEmpty()) {
            for (var credential : List.of(Map.entry(Variables.ANOMALY_REMOTE_WRITE_BEARER_TOKEN, token),
                    Map.entry(Variables.ANOMALY_REMOTE_WRITE_USERNAME, username),
                    Map.entry(Variables.ANOMALY_REMOTE_WRITE_PASSWORD, password),
                    Map.entry(Variables.ANOMALY_HISTORY_EXTERNAL_LABELS, external))) {
                if (credential.getValue().isPresent()) {
                    env.problem(credential.getKey(), "is set but OMCP_ANOMALY_HISTORY_REMOTE_WRITE is not; set the receiver's URL or unset it");
                }
            }
            return Optional.empty();
        }
        Optional<URI> uri = httpUrl(env, Variables.ANOMALY_REMOTE_WRITE, url.get(), egress, "http://prometheus:9090/api/v1/write");
        AnalysisSettings.Credentials credentials = new AnalysisSettings.Credentials.None();
        boolean valid = uri.isPresent();
        if (token.isPresent() && (username.isPresent() || password.isPresent())) {
            env.problem(Variables.ANOMALY_REMOTE_WRITE_BEARER_TOKEN, "and OMCP_ANOMALY_HISTORY_REMOTE_WRITE_USERNAME/_PASSWORD are both set;"
                    + " the receiver takes one kind of credential: keep the bearer token or the user name and password");
            valid = false;
        } else if (token.isPresent()) {
            credentials = new AnalysisSettings.Credentials.Bearer(token.get());
        } else if (username.isPresent() != password.isPresent()) {
            Variable missing = username.isPresent() ? Variables.ANOMALY_REMOTE_WRITE_PASSWORD : Variables.ANOMALY_REMOTE_WRITE_USERNAME;
            env.problem(missing, "is required with " + (username.isPresent() ? Variables.ANOMALY_REMOTE_WRITE_USERNAME.name()
                    : Variables.ANOMALY_REMOTE_WRITE_PASSWORD.name()) + " (basic authentication needs both)");
            valid = false;
        } else if (username.isPresent()) {
            if (username.get().contains(":")) {
                env.problem(Variables.ANOMALY_REMOTE_WRITE_USERNAME, "must not contain ':' (RFC 7617 basic authentication)");
                valid = false;
            }
            credentials = new AnalysisSettings.Credentials.Basic(username.get(), password.get());
        }
        ExternalLabels labels = ExternalLabels.none();
        if (external.isPresent()) {
            switch (ExternalLabels.parse(external.get())) {
                case ExternalLabels.Parsed.Accepted accepted -> labels = accepted.labels();
                case ExternalLabels.Parsed.Rejected rejected -> {
                    rejected.problems().forEach(p -> env.problem(Variables.ANOMALY_HISTORY_EXTERNAL_LABELS, p));
                    valid = false;
                }
            }
        }
        return valid ? Optional.of(new AnalysisSettings.RemoteWrite(uri.get(), credentials, labels)) : Optional.empty();
    }

    private static Optional<AnalysisSettings.IpDatasetFile> ipDataset(Environment env, SettingsFiles files) {
        Optional<Path> path = env.file(Variables.IP_ENRICH_FILE);
        if (path.isEmpty()) {
            return Optional.empty();
        }
        Variable variable = Variables.IP_ENRICH_FILE;
        DatasetLoad load;
        try (Reader reader = files.open(path.get(), MAX_IP_DATASET_BYTES)) {
            load = new IpDatasetParser().parse(reader);
        } catch (NoSuchFileException e) {
            env.problem(variable, path.get() + " does not exist; point it at the CSV dataset or unset it");
            return Optional.empty();
        } catch (SettingsFiles.TooLarge e) {
            env.problem(variable, e.getMessage() + "; keep the networks and columns the gateway should answer with (every routed"
                    + " network with a few columns fits), or check that the variable names the dataset");
            return Optional.empty();
        } catch (IOException e) {
            env.problem(variable, path.get() + " cannot be read: " + readFailure(e));
            return Optional.empty();
        } catch (OutOfMemoryError e) {
            // everything the parser held is garbage once it is left: the start says what to change instead of dying with a stack trace
            env.problem(variable, path.get() + " does not fit in the gateway's heap (" + Runtime.getRuntime().maxMemory() / (1024 * 1024)
                    + " MiB): loading takes about " + HEAP_MIB_PER_MILLION_ROWS + " MiB per million rows; give the JVM more with"
                    + " OMCP_JAVA_OPTS=-Xmx<size>, or keep fewer rows and columns");
            return Optional.empty();
        }
        return switch (load) {
            case DatasetLoad.Rejected rejected -> {
                env.problem(variable, path.get() + " cannot be used: " + rejected.reason());
                yield Optional.empty();
            }
            case DatasetLoad.Loaded loaded when loaded.skipped() > 0 -> {
                // a dataset with holes would answer "not found" for networks the operator meant to cover
                String shown = loaded.errors().stream().limit(SHOWN_ROW_ERRORS).map(DatasetLoad.RowError::toString)
                        .collect(Collectors.joining("; "));
                long more = loaded.skipped() - Math.min(SHOWN_ROW_ERRORS, loaded.errors().size());
                env.problem(variable, path.get() + " has " + loaded.skipped() + " invalid row" + (loaded.skipped() == 1 ? "" : "s")
                        + "; fix or remove " + (loaded.skipped() == 1 ? "it" : "them") + ": " + shown
                        + (more > 0 ? "; and " + more + " more" : ""));
                yield Optional.empty();
            }
            case DatasetLoad.Loaded loaded -> Optional.of(new AnalysisSettings.IpDatasetFile(path.get(), loaded.dataset(), loaded.summary()));
        };
    }

    private static Optional<URI> rdap(Environment env, EgressRules egress) {
        Optional<String> url = env.raw(Variables.IP_ENRICH_RDAP);
        if (url.isEmpty()) {
            return Optional.empty();
        }
        Optional<URI> uri = httpUrl(env, Variables.IP_ENRICH_RDAP, url.get(), egress, "https://rdap.org");
        if (uri.isPresent() && uri.get().getRawQuery() != null) {
            env.problem(Variables.IP_ENRICH_RDAP, "must be the RDAP service's base URL without a query, for example https://rdap.org");
            return Optional.empty();
        }
        return uri;
    }

    /**
     * An http(s) URL with a host, without user info or fragment, that the egress rules allow as
     * written (spec 5.9: a literal metadata address never, a private or loopback one only with
     * {@code OMCP_ALLOW_PRIVATE_BACKENDS=true}; names are checked again each time they resolve).
     */
    private static Optional<URI> httpUrl(Environment env, Variable variable, String text, EgressRules egress, String example) {
        String shown = variable.secret() ? " (the value is not shown: it may carry a token)" : HttpUrls.shown(text);
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            env.problem(variable, "is not a valid URL" + (variable.secret() ? shown : ": " + e.getReason()));
            return Optional.empty();
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || uri.getRawFragment() != null) {
            env.problem(variable, "must be an http:// or https:// URL with a host and without a fragment, for example " + example + shown);
            return Optional.empty();
        }
        if (uri.getRawUserInfo() != null) {
            env.problem(variable, "must not carry credentials in the URL" + (variable == Variables.ANOMALY_REMOTE_WRITE
                    ? "; use OMCP_ANOMALY_HISTORY_REMOTE_WRITE_BEARER_TOKEN or _USERNAME/_PASSWORD" : "") + " (the value is not shown)");
            return Optional.empty();
        }
        if (egress.checkUrl(text) instanceof EgressVerdict.Refused refused) {
            env.problem(variable, "is refused by the egress rules: " + refused.reason());
            return Optional.empty();
        }
        return Optional.of(uri);
    }

    private static String readFailure(IOException e) {
        if (e instanceof CharacterCodingException) {
            return "it is not UTF-8 text";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied; let the gateway's user read it";
        }
        if (e instanceof SettingsFiles.NotARegularFile) {
            return "it is not a regular file (a directory, a FIFO or a device); point the variable at the file itself";
        }
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
