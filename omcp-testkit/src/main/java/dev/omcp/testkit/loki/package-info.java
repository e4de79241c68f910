/**
 * A recorded fake of the Loki HTTP API: real response shapes of {@code /ready}, build info, labels,
 * label values, {@code query_range} (streams and matrix) and {@code query} (vector), answered from
 * lines the test puts in, with a small evaluator of the LogQL subset connectors generate (stream
 * selectors, line filters, {@code | json}, {@code | logfmt}, label filters, {@code count_over_time},
 * {@code sum by}, {@code topk}). Anything else answers Loki's own 400 parse error text.
 */
package dev.omcp.testkit.loki;
