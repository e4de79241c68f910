package dev.omcp.core.tools.observability;

import dev.omcp.ports.tools.Tool;
import java.util.List;

/** The builtin observability tools, in the order {@code tools/list} shows them. */
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
                new GetAnomalyHistoryTool(toolkit),
                new GeneratePostmortemTool(toolkit));
    }
}
