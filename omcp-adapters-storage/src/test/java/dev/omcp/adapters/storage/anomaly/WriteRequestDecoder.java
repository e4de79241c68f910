package dev.omcp.adapters.storage.anomaly;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.airlift.compress.snappy.SnappyDecompressor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a remote-write body back, field by field, the way a receiver does: snappy block
 * decompression, then the {@code WriteRequest} protobuf. Unknown fields fail the test instead of
 * being skipped, so an encoding mistake cannot hide.
 */
final class WriteRequestDecoder {
    record Sample(double value, long timestamp) {}

    record TimeSeries(Map<String, String> labels, List<String> labelOrder, List<Sample> samples) {}

    private WriteRequestDecoder() {}

    static List<TimeSeries> decodeBody(byte[] snappy) throws IOException {
        int length = SnappyDecompressor.getUncompressedLength(snappy, 0);
        byte[] raw = new byte[length];
        int n = new SnappyDecompressor().decompress(snappy, 0, snappy.length, raw, 0, raw.length);
        if (n != length) {
            throw new IOException("snappy length mismatch: " + n + " != " + length);
        }
        return decodeWriteRequest(raw);
    }

    static List<TimeSeries> decodeWriteRequest(byte[] raw) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(raw);
        List<TimeSeries> out = new ArrayList<>();
        while (!in.isAtEnd()) {
            int tag = in.readTag();
            expect(tag, 1, WireFormat.WIRETYPE_LENGTH_DELIMITED, "WriteRequest.timeseries");
            out.add(timeSeries(in.readByteArray()));
        }
        return out;
    }

    private static TimeSeries timeSeries(byte[] bytes) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        Map<String, String> labels = new LinkedHashMap<>();
        List<String> order = new ArrayList<>();
        List<Sample> samples = new ArrayList<>();
        while (!in.isAtEnd()) {
            int tag = in.readTag();
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> {
                    expect(tag, 1, WireFormat.WIRETYPE_LENGTH_DELIMITED, "TimeSeries.labels");
                    CodedInputStream label = CodedInputStream.newInstance(in.readByteArray());
                    String name = null;
                    String value = null;
                    while (!label.isAtEnd()) {
                        int t = label.readTag();
                        if (t == tag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
                            name = label.readString();
                        } else if (t == tag(2, WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
                            value = label.readString();
                        } else {
                            throw new IOException("unexpected Label field tag " + t);
                        }
                    }
                    labels.put(name, value);
                    order.add(name);
                }
                case 2 -> {
                    expect(tag, 2, WireFormat.WIRETYPE_LENGTH_DELIMITED, "TimeSeries.samples");
                    CodedInputStream sample = CodedInputStream.newInstance(in.readByteArray());
                    double value = 0;
                    long timestamp = 0;
                    while (!sample.isAtEnd()) {
                        int t = sample.readTag();
                        if (t == tag(1, WireFormat.WIRETYPE_FIXED64)) {
                            value = sample.readDouble();
                        } else if (t == tag(2, WireFormat.WIRETYPE_VARINT)) {
                            timestamp = sample.readInt64();
                        } else {
                            throw new IOException("unexpected Sample field tag " + t);
                        }
                    }
                    samples.add(new Sample(value, timestamp));
                }
                default -> throw new IOException("unexpected TimeSeries field " + WireFormat.getTagFieldNumber(tag));
            }
        }
        return new TimeSeries(labels, order, samples);
    }

    /** A tag as protobuf writes it: field number shifted left by 3, wire type in the low bits. */
    private static int tag(int field, int wireType) {
        return field << 3 | wireType;
    }

    private static void expect(int tag, int field, int wireType, String what) throws IOException {
        if (tag != tag(field, wireType)) {
            throw new IOException(what + ": expected field " + field + " wire type " + wireType + ", got tag " + tag);
        }
    }
}
