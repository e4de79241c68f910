package dev.omcp.core.analysis.postmortem;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.analysis.blast.BlastRadiusOptions;
import dev.omcp.core.analysis.blast.BlastRadiusWalker;
import dev.omcp.core.analysis.history.HistoryRow;
import dev.omcp.core.analysis.topology.ClusterFixture;
import dev.omcp.sdk.query.TraceSummary;
import jakarta.json.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Text from backends and callers (names, messages, log lines) in a post-mortem: inert in the markdown, unchanged in the JSON.
 */
class PostmortemMarkdownSafetyTest {
    private static final Instant FROM = Instant.parse("2025-03-10T09:00:00Z");
    private static final Instant TO = Instant.parse("2025-03-10T10:00:00Z");
    private static final LogRange WHOLE_WINDOW = LogRange.within(FROM, TO, Optional.empty());
    private static final Situation ALL_UP = new Situation(true, SourceState.available(), SourceState.available(), SourceState.available());
    private final PostmortemBuilder builder = new PostmortemBuilder();

    private static final String LINK = "pay[click](javascript:alert(1))";
    private static final String IMAGE = "lat![](http://evil.example/track.png)";
    private static final String HTML = "<img src=x onerror=alert(1)><script>steal()</script>";

    private static PostmortemReport report(String service, String signal, String rootName, Situation situation, String tenant) {
        List<HistoryRow> rows = List.of(
                new HistoryRow(service, signal, FROM.plusSeconds(120), 9.5, true, Optional.of("spike`x`"), Optional.of(FROM.plusSeconds(60))),
                new HistoryRow("other*svc*", "cpu", FROM.plusSeconds(180), 4, true, Optional.of("step"), Optional.of(FROM.plusSeconds(150))));
        List<TraceSummary> traces = List.of(new TraceSummary("abc", rootName, HTML, FROM, 5, 1, true));
        List<LogHighlight> logs = List.of(new LogHighlight(FROM, "see " + IMAGE + " and " + HTML, 3));
        PostmortemInput in = new PostmortemInput(service, "1h", FROM, TO, tenant, rows, List.of(), Map.of(),
                Optional.of(new BlastRadiusWalker().walk(ClusterFixture.merged(), List.of("db"), BlastRadiusOptions.defaults())),
                ContributingSignal.fromHistory(rows), traces, logs, WHOLE_WINDOW, situation);
        return new PostmortemBuilder().build(in);
    }

    /** Markdown that would make a link, an image, raw HTML, an autolink or a code span, where not escaped by a backslash. */
    private static final Pattern ACTIVE = Pattern.compile("(?<!\\\\)(\\[|<[A-Za-z/!?]|https?://|www\\.)");

    /** Active markdown outside code spans (a code span shows its text as it is). */
    private static List<String> active(String markdown) {
        return ACTIVE.matcher(outsideCode(markdown)).results().map(r -> r.group()).toList();
    }

    private static String outsideCode(String markdown) {
        return markdown.replaceAll("(?<!\\\\)`[^`\n]*(?<!\\\\)`", "``");
    }

    /** The cells of a GFM table row: a backslash escapes the character after it, any other {@code |} splits. */
    static int cells(String row) {
        int pipes = 0;
        for (int i = 0; i < row.length(); i++) {
            char c = row.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '|') {
                pipes++;
            }
        }
        return pipes - 1;
    }

    @Test
    void linksImagesAndHtmlFromBackendsAndCallers_areInertInTheMarkdown() {
        SourceFailure failure = new SourceFailure("tempo", SourceFailure.Kind.ERROR, "HTTP 502 " + LINK + " " + HTML);
        Situation situation = new Situation(true, SourceState.partial(List.of(failure)), SourceState.available(),
                SourceState.partial(List.of(failure)));
        PostmortemReport r = report(LINK, IMAGE, HTML + " [a](https://evil.example) www.evil.example", situation, "acme");

        String md = PostmortemMarkdown.render(r);

        assertThat(active(md)).as(md).isEmpty();
        assertThat(outsideCode(md)).doesNotContainPattern("(?<!\\\\)\\]\\(").doesNotContainPattern("(?<!\\\\)<(img|script)");
        // a log line is shown in a code span, where markdown is not read: as it was logged
        assertThat(md).contains("`see " + IMAGE + " and " + HTML + "`");
        // still readable: the characters are escaped, not dropped
        assertThat(md).contains("pay\\[click\\](javascript:alert(1))").contains("\\<img src=x onerror=alert(1)\\>");
        assertThat(md).contains("other\\*svc\\*").contains("spike\\`x\\`");
        // and through a custom template, values and blocks alike
        String custom = PostmortemTemplate.of("# {{service}} ({{tenant}}, {{window}})\n{{synopsis}}\n{{timeline}}\n{{traces}}\n"
                + "{{logHighlights}}\n{{followUps}}\n").render(report(LINK, IMAGE, HTML, situation, "<b>" + LINK + "</b>"));
        assertThat(active(custom)).as(custom).isEmpty();
    }

    @Test
    void aBidiOverrideInALogLineOrTraceId_cannotReorderTheCodeSpanItIsShownIn() {
        // a code span shows its characters as they are, so a raw right-to-left override there would make
        // the line read as another (exe.gnp shown as png.exe); outside code spans the escapes already make it a space
        String spoof = "payment ok \u202Eexe.gnp\u2066 done";
        List<HistoryRow> rows = List.of(new HistoryRow("db", "latency", FROM.plusSeconds(120), 9.5, true, Optional.empty(),
                Optional.of(FROM.plusSeconds(60))));
        List<TraceSummary> traces = List.of(new TraceSummary("ab\u202Ecd", "GET /", "db", FROM, 5, 1, true));
        PostmortemInput in = new PostmortemInput("db", "1h", FROM, TO, "acme", rows, List.of(), Map.of(),
                Optional.of(new BlastRadiusWalker().walk(ClusterFixture.merged(), List.of("db"), BlastRadiusOptions.defaults())),
                ContributingSignal.fromHistory(rows), traces, List.of(new LogHighlight(FROM, spoof, 1)), WHOLE_WINDOW, ALL_UP);
        PostmortemReport r = builder.build(in);

        String md = PostmortemMarkdown.render(r);

        assertThat(md).doesNotContain("\u202E").doesNotContain("\u2066").contains("`payment ok  exe.gnp  done`").contains("`ab cd`");
        // the JSON keeps the line as the backend sent it (after redaction), as it keeps every value
        assertThat(r.toJson().toString()).contains("\u202E");
    }

    @Test
    void aCharacterReference_cannotBringBackWhatTheEscapesTakeOut() {
        // markdown decodes &#x202E; to the right-to-left override the escapes turn into a space: "evilexe.png" on screen
        String spoof = "evil&#x202E;gnp.exe";
        PostmortemReport r = report(spoof, "lat&#8238;ycn", "GET &lt;img src=x&gt;", ALL_UP, "acme&#x2066;");

        String md = PostmortemMarkdown.render(r);
        String custom = PostmortemTemplate.of("{{service}} {{tenant}}\n{{timeline}}\n{{traces}}\n").render(r);

        Pattern reference = Pattern.compile("(?<!\\\\)&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);");
        assertThat(outsideCode(md)).as(md).doesNotContainPattern(reference);
        assertThat(outsideCode(custom)).as(custom).doesNotContainPattern(reference);
        // still readable as sent, and a plain ampersand is left alone
        assertThat(md).contains("evil\\&#x202E;gnp.exe").contains("GET \\&lt;img src=x\\&gt;");
        assertThat(PostmortemMarkdown.text("R&D & ops; a&b")).isEqualTo("R&D & ops; a&b");
        assertThat(r.toJson().getString("service")).isEqualTo(spoof);
    }

    @Test
    void theJson_carriesTheValuesAsTheBackendsSentThem_withoutMarkdownEscapes() {
        PostmortemReport r = report("pay|ments\\" + LINK, IMAGE, HTML, ALL_UP, "acme|corp");

        JsonObject json = r.toJson();

        assertThat(json.getString("service")).isEqualTo("pay|ments\\" + LINK);
        assertThat(json.getString("synopsis")).contains("Post-mortem draft for pay|ments\\" + LINK + " over 1h")
                .contains("tenant acme|corp").contains(IMAGE).doesNotContain("\\|").doesNotContain("\\[");
        assertThat(json.getJsonArray("followUps").getValuesAs(jakarta.json.JsonString::getString))
                .anySatisfy(f -> assertThat(f).contains("pay|ments\\" + LINK)).noneSatisfy(f -> assertThat(f).contains("\\|"));
        assertThat(json.getJsonObject("timeline").getJsonArray("episodes").getJsonObject(0).getString("signal")).isEqualTo(IMAGE);
        assertThat(json.getJsonObject("traces").getJsonArray("items").getJsonObject(0).getString("rootName")).isEqualTo(HTML);
    }

    @Test
    void aBackslashBeforeAPipe_cannotSplitATableCell() {
        PostmortemReport r = report("db", "lat\\|x", "GET \\|/x\\", ALL_UP, "");
        List<TraceSummary> odd = List.of(new TraceSummary("id\\|1", "root", "api", FROM, 5, 1, false));
        PostmortemReport withOddId = builder.build(new PostmortemInput("db", "1h", FROM, TO, "", List.of(), List.of(), Map.of(),
                Optional.of(new BlastRadiusWalker().walk(ClusterFixture.merged(), List.of("db"), BlastRadiusOptions.defaults())),
                List.of(), odd, List.of(), WHOLE_WINDOW, ALL_UP));

        String md = PostmortemMarkdown.render(r) + PostmortemMarkdown.render(withOddId);

        // every row has as many cells as its table's header: the timeline (7), the signals and the traces (6)
        List<String> rows = md.lines().filter(l -> l.startsWith("| ") && (l.contains("lat\\") || l.contains("`"))).toList();
        assertThat(rows).hasSize(4);
        assertThat(rows.stream().filter(l -> l.startsWith("| 2025"))).singleElement().satisfies(row -> assertThat(cells(row)).as(row).isEqualTo(7));
        assertThat(rows.stream().filter(l -> !l.startsWith("| 2025"))).hasSize(3).allSatisfy(row -> assertThat(cells(row)).as(row).isEqualTo(6));
    }

    @Test
    void theTopologysSpellingsOffered_forAnUnknownService_areInertInTheMarkdown() {
        // the offered names are a topology source's text, quoted in the synopsis, the section note, its call and a follow-up
        String offered = "Db|x`y`" + LINK + "\n# Injected heading\r\n| a | b |";
        List<String> offers = List.of(offered, IMAGE + "\n- item", HTML, "www.evil.example/Db");
        List<HistoryRow> rows = List.of(new HistoryRow("Db", "cpu", FROM.plusSeconds(60), 9, true, Optional.empty(), Optional.of(FROM)));
        PostmortemReport r = builder.build(new PostmortemInput("Db", "1h", FROM, TO, "", rows, List.of(), Map.of(),
                Optional.of(new BlastRadiusWalker().walk(ClusterFixture.merged(), List.of("Db"), BlastRadiusOptions.defaults())),
                ContributingSignal.fromHistory(rows), List.of(), List.of(), WHOLE_WINDOW, ALL_UP, Map.of(), Map.of(), offers));

        String md = PostmortemMarkdown.render(r) + PostmortemTemplate.of("{{synopsis}}\n{{blastRadius}}\n{{followUps}}\n").render(r);

        assertThat(r.toJson().getJsonObject("blastRadius").getString("note")).contains("Did you mean");
        assertThat(active(md)).as(md).isEmpty();
        assertThat(outsideCode(md)).doesNotContainPattern("(?<!\\\\)\\]\\(").doesNotContainPattern("(?<!\\\\)<(img|script)");
        // every offer stays on the line that quotes it: no heading, list item or table row of its own
        assertThat(md.lines()).noneMatch(l -> l.startsWith("# Injected") || l.startsWith("- item") || l.startsWith("| a"));
        assertThat(md).contains("Db\\|x\\`y\\`pay\\[click\\](javascript:alert(1)) # Injected heading");
    }

    @Test
    void aLongNameCutInTheMiddleOfAnEmoji_staysValidUnicode() {
        String name = "a".repeat(198) + "\uD83D\uDD25".repeat(5); // the cut at 199 chars falls inside the first emoji
        String line = "b".repeat(298) + "\uD83D\uDD25".repeat(5);
        List<HistoryRow> rows = List.of(new HistoryRow(name, "cpu", FROM.plusSeconds(60), 9, true, Optional.empty(), Optional.of(FROM)));
        PostmortemReport r = builder.build(new PostmortemInput(name, "1h", FROM, TO, "", rows, List.of(), Map.of(), Optional.empty(),
                ContributingSignal.fromHistory(rows), List.of(), List.of(new LogHighlight(FROM, line, 1)), WHOLE_WINDOW,
                new Situation(true, SourceState.notConfigured(), SourceState.notConfigured(), SourceState.available())));

        String md = PostmortemMarkdown.render(r);

        assertThat(loneSurrogates(md)).as("lone surrogates in the markdown").isZero();
        assertThat(loneSurrogates(r.toJson().toString())).as("lone surrogates in the JSON").isZero();
        assertThat(md).contains("a".repeat(198) + "…").contains("b".repeat(298) + "…");
    }

    private static long loneSurrogates(String s) {
        long lone = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                lone++;
            }
        }
        return lone;
    }
}
