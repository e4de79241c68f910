package dev.omcp.testkit.demo.prometheus;

import java.util.List;
import java.util.Map;

/** Values PromQL expressions evaluate to. */
sealed interface PromValue {

    record Scalar(double value) implements PromValue {}

    record StringValue(String value) implements PromValue {}

    /** One element of an instant vector. */
    record Sample(Map<String, String> labels, double value) {}

    record Vector(List<Sample> samples) implements PromValue {}

    /** One series of a range vector. */
    record RangeSeries(Map<String, String> labels, long[] times, double[] values) {}

    record Matrix(List<RangeSeries> series) implements PromValue {}
}
