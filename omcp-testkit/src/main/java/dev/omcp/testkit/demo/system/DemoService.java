package dev.omcp.testkit.demo.system;

import java.util.List;

/**
 * One service of the simulated shop.
 *
 * @param name service name (the value of the {@code job}, {@code service} and {@code app} labels)
 * @param kind {@code deployment} or {@code statefulset}
 * @param replicas how many pods run it
 * @param baseRatePerSecond requests per second at the daily mean
 * @param medianLatencySeconds median request latency on a normal day
 * @param baseErrorRatio share of requests failing on a normal day
 * @param baseCpuCores CPU cores used per pod at zero traffic
 * @param cpuPerRequest CPU seconds per request
 * @param memoryBytes resident memory per pod on a normal day
 * @param cpuLimitCores the CPU limit of each pod's container (cAdvisor {@code container_spec_cpu_quota})
 * @param memoryLimitBytes the memory limit of each pod's container ({@code container_spec_memory_limit_bytes})
 * @param calls the services it calls
 */
public record DemoService(
        String name,
        String kind,
        int replicas,
        double baseRatePerSecond,
        double medianLatencySeconds,
        double baseErrorRatio,
        double baseCpuCores,
        double cpuPerRequest,
        double memoryBytes,
        double cpuLimitCores,
        double memoryLimitBytes,
        List<String> calls) {
    public DemoService {
        calls = List.copyOf(calls);
    }
}
