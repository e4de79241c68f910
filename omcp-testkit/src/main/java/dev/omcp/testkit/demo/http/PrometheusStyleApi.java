package dev.omcp.testkit.demo.http;

import java.io.IOException;

/**
 * What Loki's HTTP API took over from Prometheus's, for the two simulated servers: the success
 * envelope, sample times in Unix seconds, and one label's values under
 * {@code <label API>/<name>/values}.
 */
public final class PrometheusStyleApi {
    private static final String VALUES = "/values";

    private PrometheusStyleApi() {}

    /** A successful answer: {@code {"status":"success","data":<data>}}. */
    public static String success(String data) {
        return "{\"status\":\"success\",\"data\":" + data + "}";
    }

    /** A sample's time as both APIs write it: Unix seconds, with a fraction only when there is one. */
    public static String unixSeconds(long epochMillis) {
        return epochMillis % 1000 == 0 ? Long.toString(epochMillis / 1000) : Double.toString(epochMillis / 1000.0);
    }

    /** Answers the values of one label. */
    @FunctionalInterface
    public interface LabelValues {
        void answer(LoopbackHttpServer.Request request, String label) throws IOException;
    }

    /**
     * The route of {@code <labelApi><name>/values}, mounted at {@code labelApi} (which ends with a
     * slash); any other path below it is a 404, as on the real servers.
     */
    public static LoopbackHttpServer.Route labelValues(String labelApi, LabelValues values) {
        return request -> {
            String path = request.path();
            if (!path.endsWith(VALUES)) {
                request.respond(404, "text/plain", "404 page not found\n");
                return;
            }
            values.answer(request, path.substring(labelApi.length(), path.length() - VALUES.length()));
        };
    }
}
