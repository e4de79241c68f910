package dev.omcp.core.analysis.postmortem;

import dev.omcp.core.analysis.blast.AffectedNode;
import dev.omcp.core.analysis.postmortem.PostmortemReport.BlastIncluded;
import dev.omcp.core.analysis.postmortem.PostmortemReport.BlastOmitted;
import dev.omcp.core.analysis.postmortem.PostmortemReport.TracesIncluded;
import dev.omcp.core.analysis.postmortem.PostmortemReport.TracesOmitted;
import dev.omcp.sdk.query.TraceSummary;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Renders a {@link PostmortemReport} as markdown. The built-in layout has the spec 4.4 sections
 * in the prescribed order: Synopsis; Anomaly timeline; Blast radius at peak; Contributing signals;
 * Related traces; Log highlights (only when extracted); Suggested follow-ups. A section omitted by
 * a situation rule keeps its heading and shows the note instead.
 *
 * <p>The report holds plain text (the JSON form carries it as it is); this is the one place that makes it markdown. Every
 * piece of the report's text, its sentences as much as the names from backends and callers in them, goes through
 * {@link #text} or {@link #cell}: one line, and inert, whatever it holds (a name like {@code [x](javascript:…)},
 * {@code ![](http://…)} or {@code <img …>} shows as those characters, never as a link, an image or HTML, and a {@code |}
 * never splits a table cell). Log lines and trace ids are shown in code spans ({@link #code}), where markdown is not read.
 */
public final class PostmortemMarkdown {
    /** The rendered body of each section, without headings; also what the template tokens expand to. */
    public record Blocks(String synopsis, String timeline, String blastRadius, String signals, String traces,
            String logHighlights, String followUps) {}

    /** What markdown decodes as a character reference: an entity name or a decimal or hex code point, then {@code ;}. */
    private static final Pattern CHARACTER_REFERENCE = Pattern.compile("&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});");

    private PostmortemMarkdown() {}

    /** The built-in layout. */
    public static String render(PostmortemReport r) {
        Blocks b = blocks(r);
        StringBuilder out = new StringBuilder();
        out.append("# Post-mortem draft: ").append(cell(r.service())).append("\n\n");
        r.noSignalNotice().ifPresent(n -> out.append(notice(n)));
        section(out, "Synopsis", b.synopsis());
        section(out, "Anomaly timeline", b.timeline());
        section(out, "Blast radius at peak", b.blastRadius());
        section(out, "Contributing signals", b.signals());
        section(out, "Related traces", b.traces());
        if (r.showsLogHighlights()) {
            section(out, "Log highlights", b.logHighlights());
        }
        section(out, "Suggested follow-ups", b.followUps());
        return out.toString().stripTrailing() + "\n";
    }

    static String notice(String text) {
        return "> **" + text(text) + "**\n\n";
    }

    private static void section(StringBuilder out, String title, String body) {
        out.append("## ").append(title).append("\n\n").append(body.stripTrailing()).append("\n\n");
    }

    /** The section bodies. */
    public static Blocks blocks(PostmortemReport r) {
        return new Blocks(text(r.synopsis()) + "\n", timeline(r), blast(r), signals(r), traces(r), logs(r), followUps(r));
    }

    private static String timeline(PostmortemReport r) {
        return episodes(r) + outsideScope(r);
    }

    /** The services outside the scope that had anomalies: what the rows above cannot show. */
    private static String outsideScope(PostmortemReport r) {
        List<OutsideScope> outside = r.timeline().outsideScope();
        if (outside.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("\n_Outside this report's scope (").append(cell(r.service()))
                .append(" and its blast radius), anomalies were also recorded for: ");
        for (int i = 0; i < outside.size(); i++) {
            OutsideScope o = outside.get(i);
            b.append(i == 0 ? "" : "; ").append(cell(o.service())).append(" (").append(cell(o.signal()))
                    .append(o.onsetKnown() ? " from " : ", first recorded at ").append(o.onset());
            if (o.episodes() > 1) {
                b.append(", ").append(o.episodes()).append(" episodes");
            }
            o.reachesService().ifPresent(reaches -> b.append(reaches ? "; " + cell(r.service()) + " is in its blast radius"
                    : "; no path to " + cell(r.service())));
            b.append(')');
        }
        return b.append(". get_anomaly_history lists them._\n").toString();
    }

    private static String episodes(PostmortemReport r) {
        PostmortemReport.Timeline t = r.timeline();
        if (t.episodes().isEmpty()) {
            return scopeNote(t) + (t.scoresRecorded() == 0
                    ? "_No anomaly scores recorded between " + r.from() + " and " + r.to() + "._\n"
                    : "_No anomaly between " + r.from() + " and " + r.to() + ": " + t.scoresRecorded() + " score"
                            + (t.scoresRecorded() == 1 ? "" : "s") + " recorded, all normal._\n");
        }
        StringBuilder b = new StringBuilder(scopeNote(t)).append(
                "| Onset (UTC) | Service | Signal | Kind | Peak score | Judgements | Last seen (UTC) |\n|---|---|---|---|---|---|---|\n");
        for (AnomalyEpisode e : t.episodes()) {
            b.append("| ").append(e.onset()).append(e.onsetKnown() ? "" : " (first recorded; onset not dated)").append(" | ")
                    .append(cell(e.service())).append(" | ").append(signal(r, e.signal())).append(" | ")
                    .append(e.kind().map(PostmortemMarkdown::cell).orElse("-")).append(" | ")
                    .append(score(e.peakScore(), e.levelAboveLargestBucket())).append(" | ").append(e.judgments()).append(" | ")
                    .append(e.lastSeen()).append(" |\n");
        }
        b.append("\n_One row per anomaly episode: the judgements of one signal whose onsets agree within ")
                .append(AnomalyEpisodes.ONSET_TOLERANCE.toMinutes()).append(" min, earliest onset first (")
                .append(t.anomalousScores()).append(" anomalous of ").append(t.scoresRecorded()).append(" scores recorded).");
        if (t.omitted() > 0) {
            b.append(" ").append(t.omitted()).append(" later episode").append(t.omitted() == 1 ? "" : "s")
                    .append(" not shown (the ").append(PostmortemReport.MAX_TIMELINE_ROWS)
                    .append(" earliest are listed); get_anomaly_history has every score.");
        }
        if (t.episodes().stream().anyMatch(AnomalyEpisode::levelAboveLargestBucket)) {
            b.append(" ").append(LOWER_BOUND_NOTE);
        }
        return b.append("_\n").toString();
    }

    /** The scope note in place, before the rows it qualifies; empty when the scope is whole. */
    private static String scopeNote(PostmortemReport.Timeline t) {
        return t.scopeNote().map(n -> "_" + text(n) + "_\n\n").orElse("");
    }

    /** A section's partial note in place, before what it qualifies. */
    private static String partialNote(java.util.Optional<String> note) {
        return note.map(n -> "_" + text(n) + "_\n\n").orElse("");
    }

    /** A signal cell: the name, and what it measures when the report knows. */
    private static String signal(PostmortemReport r, String name) {
        return cell(name) + r.measure(name).map(m -> " (" + cell(m) + ")").orElse("");
    }

    private static String blast(PostmortemReport r) {
        return switch (r.blastRadius()) {
            case BlastOmitted o -> "_" + text(o.note()) + "_\n";
            case BlastIncluded in -> {
                StringBuilder b = new StringBuilder(partialNote(in.partialNote()));
                if (in.nodes().isEmpty()) {
                    b.append("_").append(in.unresolvedNote().map(PostmortemMarkdown::text)
                            .orElseGet(() -> "The topology does not know " + cell(r.service()) + ": nothing to walk.")).append("_\n");
                    yield b.toString();
                }
                int affected = in.totalNodes() - in.targets().size();
                b.append(String.format(Locale.ROOT, "%s%d affected resource%s beyond the %d matching %s",
                        in.partialNote().isPresent() ? "At least " : "", affected, affected == 1 ? "" : "s",
                        in.targets().size(), in.targets().size() == 1 ? "resource" : "resources"));
                if (!in.hosts().isEmpty()) {
                    b.append(" on ").append(in.hosts().size()).append(" host").append(in.hosts().size() == 1 ? "" : "s").append(": ");
                    b.append(String.join(", ", in.hosts().entrySet().stream().sorted(Map.Entry.comparingByKey())
                            .map(e -> cell(e.getKey()) + " (" + e.getValue() + ")").toList()));
                }
                b.append(".\n\n| Resource | Kind | Hops | Impact | Host | Owner |\n|---|---|---|---|---|---|\n");
                for (AffectedNode n : in.nodes()) {
                    b.append("| ").append(cell(n.id())).append(" | ").append(cell(n.kind())).append(" | ").append(n.hops())
                            .append(" | ").append(cell(n.impact())).append(" | ").append(n.host().map(PostmortemMarkdown::cell).orElse("-"))
                            .append(" | ").append(n.ownerRoot().map(PostmortemMarkdown::cell).orElse("-")).append(" |\n");
                }
                int omitted = in.totalNodes() - in.nodes().size();
                if (omitted > 0) {
                    b.append("\n_").append(omitted).append(" more resource").append(omitted == 1 ? "" : "s")
                            .append(" not shown (the ").append(PostmortemReport.MAX_BLAST_NODES).append(" nearest are listed)._\n");
                }
                if (!in.unresolved().isEmpty()) {
                    b.append("\n_Not found in the topology: ").append(cell(String.join(", ", in.unresolved()))).append("._\n");
                }
                yield b.toString();
            }
        };
    }

    /** The footnote of a table with lower-bound scores (marked +, as the log highlights mark their lower-bound counts). */
    static final String LOWER_BOUND_NOTE = "Scores marked + are lower bounds: the latency was above its histogram's largest bucket"
            + " (+Inf), too high to measure, so how far off it was is unknown.";

    /** A score to one decimal, marked + when it is only a lower bound. */
    private static String score(double score, boolean lowerBound) {
        return String.format(Locale.ROOT, "%.1f", score) + (lowerBound ? "+" : "");
    }

    private static String signals(PostmortemReport r) {
        if (r.signals().isEmpty()) {
            return "_No signal scores recorded in this window._\n";
        }
        StringBuilder b = new StringBuilder("| Service | Signal | Mean score | Peak score | Samples | Anomalous |\n|---|---|---|---|---|---|\n");
        for (ContributingSignal s : r.signals()) {
            b.append("| ").append(cell(s.service())).append(" | ").append(signal(r, s.signal())).append(" | ")
                    .append(score(s.meanScore(), s.levelAboveLargestBucket())).append(" | ")
                    .append(score(s.peakScore(), s.levelAboveLargestBucket()))
                    .append(String.format(Locale.ROOT, " | %d | %d |\n", s.samples(), s.anomalousSamples()));
        }
        boolean lowerBounds = r.signals().stream().anyMatch(ContributingSignal::levelAboveLargestBucket);
        if (r.signalsTotal() > r.signals().size() || lowerBounds) {
            b.append("\n_");
            if (r.signalsTotal() > r.signals().size()) {
                b.append("Top ").append(r.signals().size()).append(" of ").append(r.signalsTotal()).append(" signals by mean score.");
            }
            if (lowerBounds) {
                b.append(r.signalsTotal() > r.signals().size() ? " " : "").append(LOWER_BOUND_NOTE)
                        .append(" Such signals are listed first: a latency too high for its histogram to measure is at least as"
                                + " severe as any measured score.");
            }
            b.append("_\n");
        }
        return b.toString();
    }

    private static String traces(PostmortemReport r) {
        return switch (r.traces()) {
            case TracesOmitted o -> "_" + text(o.note()) + "_\n";
            case TracesIncluded in -> {
                if (in.traces().isEmpty()) {
                    yield partialNote(in.partialNote()) + "_No related traces found in this window._\n";
                }
                StringBuilder b = new StringBuilder(partialNote(in.partialNote()));
                if (in.listedErrors() > 0) {
                    b.append("**").append(in.listedErrors()).append(in.errorCount() > in.listedErrors() ? " of " + in.errorCount() : "")
                            .append(" error trace").append(in.errorCount() == 1 ? "" : "s").append(":** ");
                    b.append(String.join(", ", in.traces().stream().filter(TraceSummary::hasError).map(t -> "`" + code(t.traceId()) + "`").toList()));
                    b.append("\n\n");
                }
                b.append("| Trace | Root | Service | Duration (ms) | Spans | Error |\n|---|---|---|---|---|---|\n");
                for (TraceSummary t : in.traces()) {
                    b.append("| `").append(codeCell(t.traceId())).append("` | ").append(cell(t.rootName())).append(" | ")
                            .append(cell(t.rootService())).append(" | ").append(Double.isFinite(t.durationMs()) ? String.format(Locale.ROOT, "%.1f", t.durationMs()) : "unknown")
                            .append(" | ").append(t.spanCount()).append(" | ").append(t.hasError() ? "**error**" : "").append(" |\n");
                }
                if (in.total() > in.traces().size()) {
                    b.append("\n_").append(in.traces().size()).append(" of ").append(in.totalText())
                            .append(" related traces shown (errors first, then slowest)._\n");
                }
                yield b.toString();
            }
        };
    }

    private static String logs(PostmortemReport r) {
        StringBuilder b = new StringBuilder(partialNote(r.logSearch().flatMap(PostmortemReport.LogSearch::note)));
        boolean lowerBounds = false;
        for (LogHighlight l : r.logHighlights()) {
            String count = l.occurrences() + (l.countIsLowerBound() ? "+" : "");
            b.append("- ").append(l.firstSeen()).append(l.occurrences() > 1 || l.countIsLowerBound() ? " (x" + count + ")" : "")
                    .append(": `").append(code(l.line())).append("`\n");
            lowerBounds |= l.countIsLowerBound();
        }
        if (lowerBounds) {
            b.append("\n_Counts marked + are lower bounds: the logs source returned only its newest lines, so those lines may be "
                    + "older and more frequent than shown._\n");
        }
        return b.toString();
    }

    private static String followUps(PostmortemReport r) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < r.followUps().size(); i++) {
            b.append(i + 1).append(". ").append(text(r.followUps().get(i))).append('\n');
        }
        return b.toString();
    }

    /** A name or short value from a backend or the caller, for a table cell or a line: {@link #text}, at most 200 characters. */
    static String cell(String text) {
        return escape(PostmortemBuilder.inline(text));
    }

    /**
     * Report text as inert markdown on one line: control characters (line breaks included) become spaces, and every character
     * that could start a link, an image, raw HTML, an autolink, a code span, emphasis or a table cell is escaped with a
     * backslash, so the reader sees the text as it is. Public for the tool's footnotes, which quote what sources said.
     */
    public static String text(String text) {
        return escape(PostmortemBuilder.oneLine(text));
    }

    /**
     * The backslash escapes of {@link #text}. {@code [ ]} stop links and images (an {@code !} alone is harmless), {@code <}
     * raw HTML and {@code <…>} autolinks, {@code ://} and {@code www.} the autolinks GFM makes of bare addresses,
     * {@code `} code spans, {@code *} emphasis, {@code |} table cells, {@code \} an escape of ours undone by a backslash
     * before it. Bidirectional overrides become spaces: they would make a name read as another. An {@code &} that starts a
     * character reference ({@code &#x202E;}, {@code &lt;}) is escaped too, or the reader would decode it to the override or
     * the character the escapes just neutralised; a plain {@code &} ({@code R&D}) is left as it is. {@code _} is left alone:
     * it is in most signal names ({@code latency_p99}) and emphasises nothing inside a word.
     */
    private static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\', '`', '*', '[', ']', '<', '>', '|' -> out.append('\\').append(c);
                case ':' -> out.append(text.startsWith("//", i + 1) ? "\\:" : ":");
                case '.' -> out.append(i >= 3 && text.regionMatches(true, i - 3, "www", 0, 3) ? "\\." : ".");
                case '&' -> out.append(CHARACTER_REFERENCE.matcher(text).region(i, text.length()).lookingAt() ? "\\&" : "&");
                default -> out.append(isBidiControl(c) ? ' ' : c);
            }
        }
        return out.toString();
    }

    /** An embedding, override or isolate of the bidirectional algorithm: it would make the text after it read as another. */
    private static boolean isBidiControl(char c) {
        return (c >= '\u202A' && c <= '\u202E') || (c >= '\u2066' && c <= '\u2069');
    }

    /**
     * Text inside an inline code span: one line without control characters, no backticks, at most 300 characters. Public for the
     * tool's footnote, which quotes a failed source's query as the draft quotes its lines. A code span shows its characters as
     * they are, so bidirectional overrides become spaces here too: a log line could otherwise read as another.
     */
    public static String code(String text) {
        String oneLine = PostmortemBuilder.oneLine(text).replace('`', '\'');
        StringBuilder out = new StringBuilder(oneLine.length());
        oneLine.chars().forEach(c -> out.append(isBidiControl((char) c) ? ' ' : (char) c));
        return PostmortemBuilder.shorten(out.toString(), 300);
    }

    /**
     * {@link #code} for a table cell: a {@code |} splits a table cell even inside a code span, so it is escaped ({@code \|},
     * which a table shows as {@code |} there too). GFM reads a backslash and the character after it as a pair before it looks
     * for pipes, so a backslash right before a pipe is doubled too, or {@code \\|} would end the cell (the cell then shows
     * that backslash twice).
     */
    static String codeCell(String text) {
        String code = code(text);
        StringBuilder out = new StringBuilder(code.length() + 8);
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '|') {
                out.append("\\|");
            } else if (c == '\\' && i + 1 < code.length() && code.charAt(i + 1) == '|') {
                out.append("\\\\");
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
