package dev.omcp.app.settings;

import dev.omcp.adapters.storage.anomaly.ExternalLabels;
import dev.omcp.core.ipenrich.IpDataset;
import dev.omcp.core.tools.observability.ServiceCatalog;
import java.net.URI;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * How the tools analyse and enrich what the backends return (docs/analysis.md, "Operating the
 * analysis"). Files that must be valid at start (catalog, IP dataset) are already read here, so a
 * broken one is reported with every other invalid setting.
 *
 * @param catalog {@code OMCP_SERVICE_CATALOG_FILE}
 * @param redaction {@code OMCP_REDACTION}: whether {@code query_logs} output is redacted (spec 5.7)
 * @param remoteWrite {@code OMCP_ANOMALY_HISTORY_REMOTE_WRITE}, its credentials and external labels, when set
 * @param ipDataset {@code OMCP_IP_ENRICH_FILE}, loaded, when set
 * @param rdap {@code OMCP_IP_ENRICH_RDAP}, the RDAP service's base URL, when set
 * @param postmortemTemplate {@code OMCP_POSTMORTEM_TEMPLATE}, read at each call, when set
 */
public record AnalysisSettings(CatalogFile catalog, boolean redaction, Optional<RemoteWrite> remoteWrite,
        Optional<IpDatasetFile> ipDataset, Optional<URI> rdap, Optional<Path> postmortemTemplate) {
    public AnalysisSettings {
        Objects.requireNonNull(catalog, "catalog");
        Objects.requireNonNull(remoteWrite, "remoteWrite");
        Objects.requireNonNull(ipDataset, "ipDataset");
        Objects.requireNonNull(rdap, "rdap");
        Objects.requireNonNull(postmortemTemplate, "postmortemTemplate");
    }

    /** What {@code OMCP_SERVICE_CATALOG_FILE} gave. */
    public sealed interface CatalogFile {
        /** Unset: no catalog. */
        record NotSet() implements CatalogFile {}

        /** Set, but no file is there: no enrichment (spec 2.11), said once in the log at start. */
        record Missing(Path path) implements CatalogFile {
            public Missing {
                Objects.requireNonNull(path, "path");
            }
        }

        /** Read and valid. */
        record Loaded(Path path, ServiceCatalog catalog) implements CatalogFile {
            public Loaded {
                Objects.requireNonNull(path, "path");
                Objects.requireNonNull(catalog, "catalog");
            }
        }

        /** The catalog tools enrich with: empty unless loaded. */
        default ServiceCatalog catalogOrEmpty() {
            return this instanceof Loaded loaded ? loaded.catalog() : ServiceCatalog.empty();
        }
    }

    /**
     * The remote-write receiver of anomaly scores.
     *
     * @param url the receiver's endpoint (may carry a token in its query: never logged whole)
     * @param credentials how the request authenticates
     * @param externalLabels {@code OMCP_ANOMALY_HISTORY_EXTERNAL_LABELS}: added to every series written, none when unset
     */
    public record RemoteWrite(URI url, Credentials credentials, ExternalLabels externalLabels) {
        public RemoteWrite {
            Objects.requireNonNull(url, "url");
            Objects.requireNonNull(credentials, "credentials");
            Objects.requireNonNull(externalLabels, "externalLabels");
        }

        /** A receiver written to without external labels, as by a single gateway. */
        public RemoteWrite(URI url, Credentials credentials) {
            this(url, credentials, ExternalLabels.none());
        }

        @Override
        public String toString() {
            return "RemoteWrite[" + url.getScheme() + "://" + url.getHost() + ", credentials " + credentials.kind() + ", external labels "
                    + (externalLabels.isEmpty() ? "none" : externalLabels) + "]";
        }
    }

    /** Remote-write credentials; {@code toString} never shows a secret. */
    public sealed interface Credentials {
        /** {@code none}, {@code bearer} or {@code basic}, for logs. */
        String kind();

        record None() implements Credentials {
            @Override
            public String kind() {
                return "none";
            }
        }

        record Bearer(String token) implements Credentials {
            public Bearer {
                Objects.requireNonNull(token, "token");
            }

            @Override
            public String kind() {
                return "bearer";
            }

            @Override
            public String toString() {
                return "Bearer[token hidden]";
            }
        }

        record Basic(String username, String password) implements Credentials {
            public Basic {
                Objects.requireNonNull(username, "username");
                Objects.requireNonNull(password, "password");
            }

            @Override
            public String kind() {
                return "basic";
            }

            @Override
            public String toString() {
                return "Basic[" + username + ", password hidden]";
            }
        }
    }

    /**
     * The loaded IP dataset.
     *
     * @param path where it was read from
     * @param dataset the networks
     * @param summary one line for the start-up log (networks and rows)
     */
    public record IpDatasetFile(Path path, IpDataset dataset, String summary) {
        public IpDatasetFile {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(dataset, "dataset");
            Objects.requireNonNull(summary, "summary");
        }
    }
}
