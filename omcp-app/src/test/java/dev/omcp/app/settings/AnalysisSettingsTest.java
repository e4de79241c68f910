package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.storage.anomaly.ExternalLabels;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.net.URI;
import java.nio.charset.MalformedInputException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The analysis variables, with the files they name held in memory. */
class AnalysisSettingsTest {
    private final Map<Path, String> files = new HashMap<>();

    private final SettingsFiles memory = (path, maxBytes) -> {
        if (path.toString().endsWith("locked.json")) {
            throw new AccessDeniedException(path.toString());
        }
        if (path.toString().endsWith("latin1.csv")) {
            return new Reader() {
                @Override
                public int read(char[] buffer, int offset, int length) throws IOException {
                    throw new MalformedInputException(1);
                }

                @Override
                public void close() {}
            };
        }
        if (path.toString().endsWith("huge.csv")) {
            return new Reader() {
                @Override
                public int read(char[] buffer, int offset, int length) {
                    // what a dataset of millions of rows does to a small heap, without filling this one
                    throw new OutOfMemoryError("Java heap space");
                }

                @Override
                public void close() {}
            };
        }
        String text = files.get(path);
        if (text == null) {
            throw new NoSuchFileException(path.toString());
        }
        if (text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > maxBytes) {
            throw new SettingsFiles.TooLarge(path, text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length, maxBytes);
        }
        return new StringReader(text);
    };

    private AnalysisSettings read(String... pairs) throws InvalidSettingsException {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return SettingsReader.read(env, memory).analysis();
    }

    private String problems(String... pairs) {
        try {
            read(pairs);
        } catch (InvalidSettingsException e) {
            return String.join("\n", e.problems());
        }
        throw new AssertionError("the settings were accepted");
    }

    @Test
    void nothingSet_meansNoCatalogRedactionOnNoRemoteWriteNoEnrichmentAndTheBuiltInPostmortemLayout() throws Exception {
        AnalysisSettings analysis = read();

        assertThat(analysis.catalog()).isInstanceOf(AnalysisSettings.CatalogFile.NotSet.class);
        assertThat(analysis.catalog().catalogOrEmpty().configured()).isFalse();
        // spec 5.7: redaction is on by default
        assertThat(analysis.redaction()).isTrue();
        assertThat(analysis.remoteWrite()).isEmpty();
        assertThat(analysis.ipDataset()).isEmpty();
        assertThat(analysis.rdap()).isEmpty();
        assertThat(analysis.postmortemTemplate()).isEmpty();
    }

    // --- OMCP_SERVICE_CATALOG_FILE ---------------------------------------------------------------

    @Test
    void aCatalogFile_isLoadedInEitherForm() throws Exception {
        files.put(Path.of("/etc/omcp/catalog.json"), """
                {"services": {"checkout": {"owner": "team-shop", "tier": 1, "onCall": "#shop-oncall", "slo": "99.9"}}}""");
        files.put(Path.of("/etc/omcp/list.json"), """
                {"services": [{"name": "shop/payments", "owner": "team-pay"}]}""");

        var byName = read("OMCP_SERVICE_CATALOG_FILE", "/etc/omcp/catalog.json").catalog();
        var byList = read("OMCP_SERVICE_CATALOG_FILE", "/etc/omcp/list.json").catalog();

        assertThat(byName).isInstanceOf(AnalysisSettings.CatalogFile.Loaded.class);
        assertThat(byName.catalogOrEmpty().entry("checkout").orElseThrow().getString("owner")).isEqualTo("team-shop");
        assertThat(byList.catalogOrEmpty().entry("shop/payments").orElseThrow().getString("owner")).isEqualTo("team-pay");
    }

    @Test
    void aCatalogFileThatListsNoService_isLoaded_andCountsAsConfigured() throws Exception {
        // spec 2.10 catalogConfigured: the setting is set and the file was read, whatever it lists so far
        files.put(Path.of("/etc/omcp/empty.json"), "{\"services\": {}}");

        var catalog = read("OMCP_SERVICE_CATALOG_FILE", "/etc/omcp/empty.json").catalog();

        assertThat(catalog).isInstanceOf(AnalysisSettings.CatalogFile.Loaded.class);
        assertThat(catalog.catalogOrEmpty().configured()).isTrue();
        assertThat(catalog.catalogOrEmpty().size()).isZero();
    }

    @Test
    void aMissingCatalogFile_meansNoEnrichment_notAnInvalidSetting() throws Exception {
        // spec 2.11: a missing file means an empty catalog and no enrichment
        var catalog = read("OMCP_SERVICE_CATALOG_FILE", "/etc/omcp/absent.json").catalog();

        assertThat(catalog).isEqualTo(new AnalysisSettings.CatalogFile.Missing(Path.of("/etc/omcp/absent.json")));
        assertThat(catalog.catalogOrEmpty().configured()).isFalse();
    }

    @Test
    void aCatalogThatIsNotJson_isInvalidWithWhereTheJsonBreaks() {
        files.put(Path.of("/c.json"), "{\"services\": {\"a\": {\"owner\": \"x\"},}}");

        assertThat(problems("OMCP_SERVICE_CATALOG_FILE", "/c.json"))
                .startsWith("OMCP_SERVICE_CATALOG_FILE /c.json is not valid JSON (line 1, column ");
    }

    /** The JSON reader's own words for it were "Invalid token=EOF ... Expected tokens are: [CURLYOPEN, ...]". */
    @Test
    void anEmptyCatalogFile_isReportedAsEmpty_withWhatToWriteInIt() {
        files.put(Path.of("/empty.json"), "");
        files.put(Path.of("/blank.json"), " \n\t\n");

        for (String file : List.of("/empty.json", "/blank.json")) {
            assertThat(problems("OMCP_SERVICE_CATALOG_FILE", file)).as(file).isEqualTo("OMCP_SERVICE_CATALOG_FILE " + file
                    + " is empty; write a catalog in it ({\"services\": {}} lists no service yet), or unset the variable");
        }
    }

    @Test
    void aCatalogWithDuplicateServices_isInvalidRatherThanKeepingOneSilently() {
        files.put(Path.of("/c.json"), "{\"services\": {\"a\": {\"owner\": \"x\"}, \"a\": {\"owner\": \"y\"}}}");

        assertThat(problems("OMCP_SERVICE_CATALOG_FILE", "/c.json")).startsWith("OMCP_SERVICE_CATALOG_FILE /c.json is not valid JSON");
    }

    @Test
    void aCatalogListThatNamesAServiceTwice_isInvalid_ratherThanKeepingTheLastSilently() {
        // the object form was refused by the JSON reader; the list form kept the second entry and dropped the first
        files.put(Path.of("/c.json"), """
                {"services": [{"name": "checkout", "owner": "team-a"}, {"name": "cart"}, {"name": "checkout", "owner": "team-b"}]}""");

        assertThat(problems("OMCP_SERVICE_CATALOG_FILE", "/c.json")).isEqualTo(
                "OMCP_SERVICE_CATALOG_FILE /c.json: services[2] names 'checkout' again (first in services[0]); give each service one entry");
    }

    @Test
    void aCatalogNameWithControlCharacters_isShownEscapedInTheProblem() {
        files.put(Path.of("/c.json"), "{\"services\": {\"pay\\u001b[2Jments\": 7}}");

        assertThat(problems("OMCP_SERVICE_CATALOG_FILE", "/c.json"))
                .isEqualTo("OMCP_SERVICE_CATALOG_FILE /c.json: services.pay\\u001b[2Jments must be an object of catalog fields");
    }

    @Test
    void everyProblemOfACatalog_isListed() {
        files.put(Path.of("/c.json"), "{\"services\": [{\"name\": \"ok\"}, {\"owner\": \"nameless\"}, 7]}");

        assertThat(problems("OMCP_SERVICE_CATALOG_FILE", "/c.json")).isEqualTo("""
                OMCP_SERVICE_CATALOG_FILE /c.json: services[1] must be an object with a string "name"
                OMCP_SERVICE_CATALOG_FILE /c.json: services[2] must be an object with a string "name\"""");
    }

    @Test
    void aCatalogOfTheWrongShape_saysWhatShapeIsExpected() {
        files.put(Path.of("/array.json"), "[]");
        files.put(Path.of("/empty.json"), "{}");

        assertThat(problems("OMCP_SERVICE_CATALOG_FILE", "/array.json"))
                .isEqualTo("OMCP_SERVICE_CATALOG_FILE /array.json must hold a JSON object {\"services\": ...}, not a array");
        assertThat(problems("OMCP_SERVICE_CATALOG_FILE", "/empty.json")).contains("the catalog needs a \"services\" object");
    }

    @Test
    void anUnreadableCatalog_isInvalidWithWhatToDo() {
        assertThat(problems("OMCP_SERVICE_CATALOG_FILE", "/etc/omcp/locked.json"))
                .isEqualTo("OMCP_SERVICE_CATALOG_FILE /etc/omcp/locked.json cannot be read: permission denied; let the gateway's user read it");
    }

    @Test
    void anOversizedCatalog_isRefused() {
        files.put(Path.of("/big.json"), "{\"services\": {}, \"pad\": \"" + "x".repeat(AnalysisSettingsReader.MAX_CATALOG_CHARS) + "\"}");

        assertThat(problems("OMCP_SERVICE_CATALOG_FILE", "/big.json")).contains("is larger than 16 MiB");
    }

    // --- OMCP_REDACTION ------------------------------------------------------------------------

    @Test
    void redaction_isSwitchedOffOnlyByAnOffWord() throws Exception {
        // spec 5.7: off disables redaction process-wide
        for (String off : new String[] {"off", "OFF", "false", "no", "0"}) {
            assertThat(read("OMCP_REDACTION", off).redaction()).as(off).isFalse();
        }
        for (String on : new String[] {"on", "On", "true", "yes", "1"}) {
            assertThat(read("OMCP_REDACTION", on).redaction()).as(on).isTrue();
        }
    }

    @Test
    void aRedactionTypo_isRefusedInsteadOfGuessed() {
        // the shared switch of every other setting: the same values, the same message, the value as written
        assertThat(problems("OMCP_REDACTION", "Of")).isEqualTo("OMCP_REDACTION must be true or false (also 1/0, yes/no, on/off), got 'Of'");
        assertThat(problems("OMCP_REDACTION", "disabled")).contains("got 'disabled'");
        assertThat(problems("OMCP_REDACTION", "maybe")).isEqualTo(problems("VERIFY_PLUGINS", "maybe").replace("VERIFY_PLUGINS", "OMCP_REDACTION"));
    }

    // --- OMCP_ANOMALY_HISTORY_REMOTE_WRITE ---------------------------------------------------------

    @Test
    void aRemoteWriteUrl_isReadWithoutCredentials() throws Exception {
        var remote = read("OMCP_ANOMALY_HISTORY_REMOTE_WRITE", "https://mimir.example.com/api/v1/push").remoteWrite().orElseThrow();

        assertThat(remote.url()).isEqualTo(URI.create("https://mimir.example.com/api/v1/push"));
        assertThat(remote.credentials()).isInstanceOf(AnalysisSettings.Credentials.None.class);
    }

    @Test
    void bearerOrBasicCredentials_areRead_andNeverPrinted() throws Exception {
        var bearer = read("OMCP_ANOMALY_HISTORY_REMOTE_WRITE", "https://mimir.example.com/api/v1/push?tenant=secret-q",
                "OMCP_ANOMALY_HISTORY_REMOTE_WRITE_BEARER_TOKEN", "tok-abcdef").remoteWrite().orElseThrow();
        var basic = read("OMCP_ANOMALY_HISTORY_REMOTE_WRITE", "https://mimir.example.com/api/v1/push",
                "OMCP_ANOMALY_HISTORY_REMOTE_WRITE_USERNAME", "12345", "OMCP_ANOMALY_HISTORY_REMOTE_WRITE_PASSWORD", "pw-xyz")
                .remoteWrite().orElseThrow();

        assertThat(bearer.credentials()).isEqualTo(new AnalysisSettings.Credentials.Bearer("tok-abcdef"));
        assertThat(basic.credentials()).isEqualTo(new AnalysisSettings.Credentials.Basic("12345", "pw-xyz"));
        assertThat(bearer.toString()).doesNotContain("tok-abcdef").doesNotContain("secret-q").contains("bearer");
        assertThat(basic.toString() + basic.credentials()).doesNotContain("pw-xyz");
    }

    @Test
    void aRemoteWriteUrlThatIsNotHttp_isInvalid_andItsValueIsNotShown() {
        assertThat(problems("OMCP_ANOMALY_HISTORY_REMOTE_WRITE", "ftp://tok3n@host/x"))
                .isEqualTo("OMCP_ANOMALY_HISTORY_REMOTE_WRITE must be an http:// or https:// URL with a host and without a fragment, "
                        + "for example http://prometheus:9090/api/v1/write (the value is not shown: it may carry a token)");
        assertThat(problems("OMCP_ANOMALY_HISTORY_REMOTE_WRITE", "https://user:s3cr3t@mimir.example.com/push"))
                .contains("must not carry credentials in the URL; use OMCP_ANOMALY_HISTORY_REMOTE_WRITE_BEARER_TOKEN")
                .doesNotContain("s3cr3t");
    }

    @Test
    void aRemoteWriteReceiverAtAMetadataAddress_isRefusedEvenWithPrivateBackendsAllowed() {
        // spec 5.9: cloud-metadata addresses stay blocked even with the opt-out
        assertThat(problems("OMCP_ANOMALY_HISTORY_REMOTE_WRITE", "http://169.254.169.254/api/v1/write", "OMCP_ALLOW_PRIVATE_BACKENDS", "true"))
                .startsWith("OMCP_ANOMALY_HISTORY_REMOTE_WRITE is refused by the egress rules: the backend address is");
    }

    @Test
    void aRemoteWriteReceiverOnLoopback_needsPrivateBackendsAllowed() throws Exception {
        assertThat(problems("OMCP_ANOMALY_HISTORY_REMOTE_WRITE", "http://127.0.0.1:9090/api/v1/write"))
                .contains("OMCP_ALLOW_PRIVATE_BACKENDS=true");
        assertThat(read("OMCP_ANOMALY_HISTORY_REMOTE_WRITE", "http://127.0.0.1:9090/api/v1/write", "OMCP_ALLOW_PRIVATE_BACKENDS", "true")
                .remoteWrite()).isPresent();
    }

    @Test
    void remoteWriteCredentialsThatDoNotFit_areEachReported() {
        assertThat(problems("OMCP_ANOMALY_HISTORY_REMOTE_WRITE_BEARER_TOKEN", "t")).isEqualTo(
                "OMCP_ANOMALY_HISTORY_REMOTE_WRITE_BEARER_TOKEN is set but OMCP_ANOMALY_HISTORY_REMOTE_WRITE is not; set the receiver's URL or unset it");
        assertThat(problems("OMCP_ANOMALY_HISTORY_REMOTE_WRITE", "https://m.example.com/push",
                "OMCP_ANOMALY_HISTORY_REMOTE_WRITE_BEARER_TOKEN", "t", "OMCP_ANOMALY_HISTORY_REMOTE_WRITE_USERNAME", "u"))
                .contains("are both set");
        assertThat(problems("OMCP_ANOMALY_HISTORY_REMOTE_WRITE", "https://m.example.com/push", "OMCP_ANOMALY_HISTORY_REMOTE_WRITE_USERNAME", "u"))
                .isEqualTo("OMCP_ANOMALY_HISTORY_REMOTE_WRITE_PASSWORD is required with OMCP_ANOMALY_HISTORY_REMOTE_WRITE_USERNAME "
                        + "(basic authentication needs both)");
        assertThat(problems("OMCP_ANOMALY_HISTORY_REMOTE_WRITE", "https://m.example.com/push",
                "OMCP_ANOMALY_HISTORY_REMOTE_WRITE_USERNAME", "a:b", "OMCP_ANOMALY_HISTORY_REMOTE_WRITE_PASSWORD", "p"))
                .contains("must not contain ':'");
    }

    // --- OMCP_ANOMALY_HISTORY_EXTERNAL_LABELS -----------------------------------------------------

    @Test
    void withoutExternalLabels_theRemoteWriteCarriesNone() throws Exception {
        var remote = read("OMCP_ANOMALY_HISTORY_REMOTE_WRITE", "https://mimir.example.com/api/v1/push").remoteWrite().orElseThrow();

        assertThat(remote.externalLabels()).isEqualTo(ExternalLabels.none());
    }

    @Test
    void externalLabels_areReadInNameOrder() throws Exception {
        var remote = read("OMCP_ANOMALY_HISTORY_REMOTE_WRITE", "https://mimir.example.com/api/v1/push",
                "OMCP_ANOMALY_HISTORY_EXTERNAL_LABELS", "replica=omcp-1, cluster=eu").remoteWrite().orElseThrow();

        assertThat(remote.externalLabels().asList()).containsExactly(Map.entry("cluster", "eu"), Map.entry("replica", "omcp-1"));
    }

    @Test
    void everyBadExternalLabel_isReportedTogether_withWhatToDo() {
        assertThat(problems("OMCP_ANOMALY_HISTORY_REMOTE_WRITE", "https://m.example.com/push",
                "OMCP_ANOMALY_HISTORY_EXTERNAL_LABELS", "replica=a,replica=b,service=x,__name__=y,zone"))
                .isEqualTo("OMCP_ANOMALY_HISTORY_EXTERNAL_LABELS label replica is given twice; give each label once\n"
                        + "OMCP_ANOMALY_HISTORY_EXTERNAL_LABELS label name 'service' is already written on every anomaly series; choose "
                        + "another, for example replica\n"
                        + "OMCP_ANOMALY_HISTORY_EXTERNAL_LABELS label name '__name__' is reserved (names starting with '__' belong to "
                        + "Prometheus); choose another, for example replica\n"
                        + "OMCP_ANOMALY_HISTORY_EXTERNAL_LABELS entry 'zone' is not name=value; write the labels as name=value,name=value, "
                        + "for example replica=omcp-0");
    }

    @Test
    void externalLabelsWithoutARemoteWriteReceiver_areRefused() {
        assertThat(problems("OMCP_ANOMALY_HISTORY_EXTERNAL_LABELS", "replica=a")).isEqualTo("OMCP_ANOMALY_HISTORY_EXTERNAL_LABELS is set "
                + "but OMCP_ANOMALY_HISTORY_REMOTE_WRITE is not; set the receiver's URL or unset it");
    }

    // --- OMCP_IP_ENRICH_FILE -------------------------------------------------------------------

    @Test
    void anIpDataset_isLoaded() throws Exception {
        files.put(Path.of("/ip.csv"), """
                network,asn,org,country
                203.0.113.0/24,64500,"Example, Inc.",NL
                2001:db8::/32,64501,Example IPv6,DE
                """);

        var dataset = read("OMCP_IP_ENRICH_FILE", "/ip.csv").ipDataset().orElseThrow();

        assertThat(dataset.dataset().size()).isEqualTo(2);
        assertThat(dataset.summary()).isEqualTo("2 networks loaded from 2 rows");
    }

    @Test
    void anIpDatasetWithBadRows_isInvalid_namingTheLinesToFix() {
        files.put(Path.of("/ip.csv"), """
                network,org
                203.0.113.0/24,ok
                203.0.113.0/33,bad prefix
                198.51.100.0/24,too,many
                """);

        assertThat(problems("OMCP_IP_ENRICH_FILE", "/ip.csv"))
                .startsWith("OMCP_IP_ENRICH_FILE /ip.csv has 2 invalid rows; fix or remove them: line 3: ")
                .contains("; line 4: ");
    }

    @Test
    void anIpDatasetWithManyBadRows_listsTheFirstTenAndCountsTheRest() {
        StringBuilder csv = new StringBuilder("network,org\n");
        for (int i = 0; i < 25; i++) {
            csv.append("not-a-network-").append(i).append(",x\n");
        }
        files.put(Path.of("/ip.csv"), csv.toString());

        String problem = problems("OMCP_IP_ENRICH_FILE", "/ip.csv");

        assertThat(problem).startsWith("OMCP_IP_ENRICH_FILE /ip.csv has 25 invalid rows").endsWith("; and 15 more");
        assertThat(problem.split("line ")).hasSize(11);
    }

    @Test
    void anIpDatasetThatCannotBeUsedAtAll_saysWhy() {
        files.put(Path.of("/ip.csv"), "asn,org\n64500,x\n");

        assertThat(problems("OMCP_IP_ENRICH_FILE", "/ip.csv"))
                .startsWith("OMCP_IP_ENRICH_FILE /ip.csv cannot be used: header row: no network column");
    }

    @Test
    void aMissingOrUndecodableIpDataset_isInvalid() {
        assertThat(problems("OMCP_IP_ENRICH_FILE", "/nope.csv"))
                .isEqualTo("OMCP_IP_ENRICH_FILE /nope.csv does not exist; point it at the CSV dataset or unset it");
        assertThat(problems("OMCP_IP_ENRICH_FILE", "/latin1.csv"))
                .isEqualTo("OMCP_IP_ENRICH_FILE /latin1.csv cannot be read: it is not UTF-8 text");
    }

    @Test
    void anIpDatasetTooLargeForTheHeap_refusesTheStartSayingHowToFit_insteadOfEndingItWithAnOutOfMemoryError() {
        String problem = problems("OMCP_IP_ENRICH_FILE", "/huge.csv");

        assertThat(problem).startsWith("OMCP_IP_ENRICH_FILE /huge.csv does not fit in the gateway's heap (")
                .contains("MiB per million rows").contains("OMCP_JAVA_OPTS=-Xmx").contains("keep fewer rows");
    }

    // --- OMCP_IP_ENRICH_RDAP -------------------------------------------------------------------

    @Test
    void anRdapBaseUrl_isRead() throws Exception {
        assertThat(read("OMCP_IP_ENRICH_RDAP", "https://rdap.org").rdap()).contains(URI.create("https://rdap.org"));
    }

    @Test
    void anRdapUrlThatIsNotAnHttpBaseUrl_isInvalid() {
        assertThat(problems("OMCP_IP_ENRICH_RDAP", "on")).isEqualTo("OMCP_IP_ENRICH_RDAP must be an http:// or https:// URL with a host "
                + "and without a fragment, for example https://rdap.org, got 'on'");
        assertThat(problems("OMCP_IP_ENRICH_RDAP", "https://rdap.example.net/?key=1"))
                .isEqualTo("OMCP_IP_ENRICH_RDAP must be the RDAP service's base URL without a query, for example https://rdap.org");
        assertThat(problems("OMCP_IP_ENRICH_RDAP", "http://10.0.0.5/rdap")).contains("OMCP_ALLOW_PRIVATE_BACKENDS=true");
    }

    // --- OMCP_POSTMORTEM_TEMPLATE --------------------------------------------------------------

    @Test
    void aPostmortemTemplatePath_isKeptForReadingAtEachCall_evenWhenNoFileIsThereYet() throws Exception {
        // spec 4.4: an unreadable template falls back to the built-in layout, so it is no reason to refuse the start
        assertThat(read("OMCP_POSTMORTEM_TEMPLATE", "/etc/omcp/postmortem.md").postmortemTemplate())
                .contains(Path.of("/etc/omcp/postmortem.md"));
    }

    @Test
    void aPostmortemTemplatePathThatNamesNoFile_isInvalid() {
        assertThat(problems("OMCP_POSTMORTEM_TEMPLATE", "/")).isEqualTo("OMCP_POSTMORTEM_TEMPLATE must name a file, got '/'");
    }

    // --- all at once ---------------------------------------------------------------------------

    @Test
    void everyInvalidAnalysisValue_isReportedTogether_withoutSecrets() {
        files.put(Path.of("/c.json"), "[1]");
        files.put(Path.of("/ip.csv"), "network\nbad\n");

        assertThatThrownBy(() -> read(
                "OMCP_SERVICE_CATALOG_FILE", "/c.json",
                "OMCP_REDACTION", "maybe",
                "OMCP_ANOMALY_HISTORY_REMOTE_WRITE", "gopher://hidden-token@x",
                "OMCP_ANOMALY_HISTORY_REMOTE_WRITE_PASSWORD", "pw-secret",
                "OMCP_IP_ENRICH_FILE", "/ip.csv",
                "OMCP_IP_ENRICH_RDAP", "rdap.org",
                "OMCP_POSTMORTEM_TEMPLATE", "/"))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> {
                    assertThat(e.problems()).hasSize(7);
                    assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("OMCP_SERVICE_CATALOG_FILE"))
                            .anySatisfy(p -> assertThat(p).startsWith("OMCP_REDACTION"))
                            .anySatisfy(p -> assertThat(p).startsWith("OMCP_ANOMALY_HISTORY_REMOTE_WRITE must"))
                            .anySatisfy(p -> assertThat(p).startsWith("OMCP_ANOMALY_HISTORY_REMOTE_WRITE_USERNAME is required"))
                            .anySatisfy(p -> assertThat(p).startsWith("OMCP_IP_ENRICH_FILE"))
                            .anySatisfy(p -> assertThat(p).startsWith("OMCP_IP_ENRICH_RDAP"))
                            .anySatisfy(p -> assertThat(p).startsWith("OMCP_POSTMORTEM_TEMPLATE"));
                    assertThat(e.getMessage()).doesNotContain("hidden-token").doesNotContain("pw-secret");
                });
    }
}
