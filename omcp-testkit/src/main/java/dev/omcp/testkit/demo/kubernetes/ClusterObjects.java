package dev.omcp.testkit.demo.kubernetes;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.testkit.demo.system.DemoPod;
import dev.omcp.testkit.demo.system.DemoService;
import dev.omcp.testkit.demo.system.SimulatedSystem;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shop as Kubernetes API objects: namespaces, nodes, deployments with their replica sets,
 * stateful sets, a node-exporter daemon set, pods and services, with owner references, selectors
 * and placements as a real cluster reports them.
 */
final class ClusterObjects {
    static final String RESOURCE_VERSION = "48213";
    private final Map<String, List<JsonObject>> byResource = new LinkedHashMap<>();

    ClusterObjects(SimulatedSystem system) {
        String created = Instant.ofEpochMilli(system.metrics().origin()).toString();
        List<JsonObject> namespaces = new ArrayList<>();
        for (String ns : List.of("default", "kube-system", "monitoring", SimulatedSystem.NAMESPACE)) {
            namespaces.add(Jsonp.object().add("metadata", meta(ns, null, created, Map.of("kubernetes.io/metadata.name", ns)))
                    .add("status", Jsonp.object().add("phase", "Active")).build());
        }
        List<JsonObject> nodes = new ArrayList<>();
        for (int i = 0; i < SimulatedSystem.NODES.size(); i++) {
            String node = SimulatedSystem.NODES.get(i);
            nodes.add(Jsonp.object()
                    .add("metadata", meta(node, null, created, Map.of("kubernetes.io/hostname", node, "node-role.kubernetes.io/worker", "")))
                    .add("spec", Jsonp.object().add("providerID", "demo://" + node))
                    .add("status", Jsonp.object()
                            .add("addresses", Jsonp.array()
                                    .add(Jsonp.object().add("type", "InternalIP").add("address", SimulatedSystem.nodeAddress(node)))
                                    .add(Jsonp.object().add("type", "Hostname").add("address", node)))
                            .add("conditions", Jsonp.array().add(Jsonp.object().add("type", "Ready").add("status", "True")))
                            .add("nodeInfo", Jsonp.object().add("kubeletVersion", "v1.31.2").add("osImage", "Debian GNU/Linux 12"))
                            .add("capacity", Jsonp.object().add("cpu", "8").add("memory", "32Gi")))
                    .build());
        }
        List<JsonObject> deployments = new ArrayList<>();
        List<JsonObject> replicaSets = new ArrayList<>();
        List<JsonObject> statefulSets = new ArrayList<>();
        List<JsonObject> services = new ArrayList<>();
        List<JsonObject> pods = new ArrayList<>();
        for (DemoService service : system.services()) {
            List<DemoPod> servicePods = system.podsOf(service.name());
            Map<String, String> appLabels = Map.of("app", service.name());
            JsonObject status = Jsonp.object().add("replicas", service.replicas()).add("readyReplicas", service.replicas())
                    .add("availableReplicas", service.replicas()).build();
            JsonObject selector = Jsonp.object().add("matchLabels", Jsonp.object().add("app", service.name())).build();
            if (service.kind().equals("deployment")) {
                String replicaSet = servicePods.getFirst().owner();
                deployments.add(Jsonp.object().add("metadata", meta(service.name(), SimulatedSystem.NAMESPACE, created, appLabels))
                        .add("spec", Jsonp.object().add("replicas", service.replicas()).add("selector", selector))
                        .add("status", status).build());
                replicaSets.add(Jsonp.object()
                        .add("metadata", metaOwned(replicaSet, SimulatedSystem.NAMESPACE, created, appLabels, "Deployment", service.name()))
                        .add("spec", Jsonp.object().add("replicas", service.replicas()).add("selector", selector))
                        .add("status", status).build());
            } else {
                statefulSets.add(Jsonp.object().add("metadata", meta(service.name(), SimulatedSystem.NAMESPACE, created, appLabels))
                        .add("spec", Jsonp.object().add("replicas", service.replicas()).add("selector", selector)
                                .add("serviceName", service.name()))
                        .add("status", status).build());
            }
            services.add(Jsonp.object().add("metadata", meta(service.name(), SimulatedSystem.NAMESPACE, created, appLabels))
                    .add("spec", Jsonp.object().add("selector", Jsonp.object().add("app", service.name()))
                            .add("clusterIP", "10.96.0." + (10 + services.size()))
                            .add("ports", Jsonp.array().add(Jsonp.object().add("port", 80).add("targetPort", 8080))))
                    .build());
            for (DemoPod pod : servicePods) {
                pods.add(pod(pod, service, created, system));
            }
        }
        List<JsonObject> daemonSets = new ArrayList<>();
        daemonSets.add(Jsonp.object().add("metadata", meta("node-exporter", "monitoring", created, Map.of("app", "node-exporter")))
                .add("spec", Jsonp.object().add("selector", Jsonp.object().add("matchLabels", Jsonp.object().add("app", "node-exporter"))))
                .add("status", Jsonp.object().add("desiredNumberScheduled", SimulatedSystem.NODES.size())
                        .add("numberReady", SimulatedSystem.NODES.size()))
                .build());
        for (int i = 0; i < SimulatedSystem.NODES.size(); i++) {
            String node = SimulatedSystem.NODES.get(i);
            pods.add(Jsonp.object()
                    .add("metadata", metaOwned("node-exporter-" + node.substring(node.length() - 1) + "x7k2", "monitoring", created,
                            Map.of("app", "node-exporter"), "DaemonSet", "node-exporter"))
                    .add("spec", Jsonp.object().add("nodeName", node)
                            .add("containers", Jsonp.array().add(Jsonp.object().add("name", "node-exporter").add("image", "prom/node-exporter:v1.8.2"))))
                    .add("status", Jsonp.object().add("phase", "Running").add("podIP", "10.0.0." + (11 + i)).add("hostIP", "10.0.0." + (11 + i))
                            .add("conditions", Jsonp.array().add(Jsonp.object().add("type", "Ready").add("status", "True"))))
                    .build());
        }
        byResource.put("namespaces", namespaces);
        byResource.put("nodes", nodes);
        byResource.put("pods", pods);
        byResource.put("services", services);
        byResource.put("deployments", deployments);
        byResource.put("replicasets", replicaSets);
        byResource.put("statefulsets", statefulSets);
        byResource.put("daemonsets", daemonSets);
    }

    private static JsonObject pod(DemoPod pod, DemoService service, String created, SimulatedSystem system) {
        boolean rootCause = service.name().equals(system.incident().rootCause()) || service.name().equals("payments");
        int restarts = rootCause ? 2 : 0;
        JsonObjectBuilder containerStatus = Jsonp.object().add("name", service.name()).add("ready", true).add("restartCount", restarts)
                .add("state", Jsonp.object().add("running", Jsonp.object().add("startedAt", created)));
        if (restarts > 0) {
            // the slow database held the liveness probes past their timeout: the kubelet killed the container (SIGKILL, 137)
            containerStatus.add("lastState", Jsonp.object().add("terminated", Jsonp.object().add("reason", "Error").add("exitCode", 137)));
        }
        int nodeIndex = SimulatedSystem.NODES.indexOf(pod.node());
        JsonArrayBuilder containers = Jsonp.array().add(Jsonp.object().add("name", service.name())
                .add("image", "registry.example/shop/" + service.name() + ":1.42.0")
                .add("resources", Jsonp.object().add("limits", Jsonp.object()
                        .add("cpu", Math.round(service.cpuLimitCores() * 1000) + "m")
                        .add("memory", Math.round(service.memoryLimitBytes() / (1024 * 1024)) + "Mi"))));
        return Jsonp.object()
                .add("metadata", metaOwned(pod.name(), pod.namespace(), created,
                        Map.of("app", service.name(), "pod-template-hash", pod.owner().substring(pod.owner().lastIndexOf('-') + 1)),
                        pod.ownerKind(), pod.owner()))
                .add("spec", Jsonp.object().add("nodeName", pod.node()).add("containers", containers))
                .add("status", Jsonp.object().add("phase", "Running").add("podIP", pod.ip()).add("hostIP", "10.0.0." + (11 + nodeIndex))
                        .add("conditions", Jsonp.array().add(Jsonp.object().add("type", "Ready").add("status", "True")))
                        .add("containerStatuses", Jsonp.array().add(containerStatus)))
                .build();
    }

    private static JsonObjectBuilder meta(String name, String namespace, String created, Map<String, String> labels) {
        JsonObjectBuilder labelObject = Jsonp.object();
        labels.forEach(labelObject::add);
        JsonObjectBuilder meta = Jsonp.object().add("name", name)
                .add("uid", java.util.UUID.nameUUIDFromBytes((namespace + "/" + name).getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString())
                .add("resourceVersion", RESOURCE_VERSION)
                .add("creationTimestamp", created)
                .add("labels", labelObject);
        if (namespace != null) {
            meta.add("namespace", namespace);
        }
        return meta;
    }

    private static JsonObjectBuilder metaOwned(String name, String namespace, String created, Map<String, String> labels,
            String ownerKind, String ownerName) {
        String apiVersion = ownerKind.equals("ReplicaSet") || ownerKind.equals("Deployment") || ownerKind.equals("StatefulSet")
                || ownerKind.equals("DaemonSet") ? "apps/v1" : "v1";
        return meta(name, namespace, created, labels).add("ownerReferences", Jsonp.array().add(Jsonp.object()
                .add("apiVersion", apiVersion).add("kind", ownerKind).add("name", ownerName)
                .add("uid", java.util.UUID.nameUUIDFromBytes((namespace + "/" + ownerName).getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString())
                .add("controller", true).add("blockOwnerDeletion", true)));
    }

    /** Objects of one resource, optionally of one namespace. */
    List<JsonObject> list(String resource, String namespace) {
        List<JsonObject> all = byResource.getOrDefault(resource, List.of());
        if (namespace == null) {
            return all;
        }
        return all.stream().filter(o -> namespace.equals(o.getJsonObject("metadata").getString("namespace", null))).toList();
    }

    boolean knows(String resource) {
        return byResource.containsKey(resource);
    }
}
