package dev.omcp.core.tools.observability;

import dev.omcp.ports.tools.Tool;
import java.util.List;

/**
 * The builtin observability tools, in the order {@code tools/list} shows them: spec 1.7 counts
 * {@code query_traces} as the ninth tool and {@code generate_postmortem} as the eleventh.
 */
public final class ObservabilityTools {
    private ObservabilityTools() {}

    /** Every builtin tool, sharing one toolkit. */
    public static List<Tool> all(Toolkit toolkit) {
        return List.of(
                new ListSourcesTool(toolkit),
                new ListServicesTool(toolkit),
                new QueryMetricsTool(toolkit),
                new QueryLogsTool(toolkit),
                new ServiceHealthTool(toolkit),
                new DetectAnomaliesTool(toolkit),
                new GetTopologyTool(toolkit),
                new GetBlastRadiusTool(toolkit),
                new QueryTracesTool(toolkit),
                new EnrichIpsTool(toolkit),
                new GeneratePostmortemTool(toolkit),
                new GetAnomalyHistoryTool(toolkit));
    }
}
