package dev.omcp.adapters.storage.inspect;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.omcp.adapters.storage.files.JsonSyntaxLocation;
import dev.omcp.ports.inspect.ProfileStore.ProfileStoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A JSON profile file as a {@link Placed} tree, read token by token with Jackson's strict parser (no comments, no
 * trailing commas, one value) so every value keeps the line and column it starts at, which a tree of Jackson's own
 * does not keep. A syntax error names its line and column, never the parser's message, which may quote the file.
 */
final class PlacedJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    private final JsonParser parser;
    private final String source;

    private PlacedJson(JsonParser parser, String source) {
        this.parser = parser;
        this.source = source;
    }

    /**
     * The value of {@code text}.
     *
     * @param source names the file in messages
     * @throws ProfileStoreException naming the line and column of what is not valid JSON or nested too deep
     */
    static Placed read(String text, String source) {
        try (JsonParser parser = FACTORY.createParser(text)) {
            PlacedJson reader = new PlacedJson(parser, source);
            parser.nextToken();
            Placed root = reader.placed(1);
            if (parser.nextToken() != null) {
                throw ProfileProblems.refusal(List.of(source + " " + place(parser.currentTokenLocation())
                        + ": the file holds more after its one top-level object; remove what follows"));
            }
            return root;
        } catch (JsonProcessingException e) {
            // only the location: the parser's message may quote the file's content
            throw ProfileProblems.refusal(List.of(source + " is not valid JSON" + JsonSyntaxLocation.of(e)));
        } catch (IOException e) {
            throw new UncheckedIOException("reading JSON from a string cannot fail otherwise", e);
        }
    }

    /** The value at the parser's current token, which is left on the value's last token. */
    private Placed placed(int depth) throws IOException {
        Placed.Place place = place(parser.currentTokenLocation());
        if (depth > PlacedYaml.MAX_DEPTH) {
            throw ProfileProblems.refusal(List.of(source + " " + place + ": the document is nested deeper than " + PlacedYaml.MAX_DEPTH
                    + " levels; a profile is " + ProfileShape.EXAMPLE));
        }
        JsonToken token = parser.currentToken();
        return switch (token) {
            case START_OBJECT -> {
                List<Placed.Member> members = new ArrayList<>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String key = parser.currentName();
                    Placed.Place keyPlace = place(parser.currentTokenLocation());
                    parser.nextToken();
                    members.add(new Placed.Member(key, keyPlace, placed(depth + 1)));
                }
                yield new Placed.Mapping(place, List.copyOf(members));
            }
            case START_ARRAY -> {
                List<Placed> items = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    items.add(placed(depth + 1));
                }
                yield new Placed.Sequence(place, List.copyOf(items));
            }
            case VALUE_STRING -> new Placed.Scalar(place, Placed.Kind.TEXT, parser.getText());
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> new Placed.Scalar(place, Placed.Kind.NUMBER, parser.getText());
            case VALUE_TRUE, VALUE_FALSE -> new Placed.Scalar(place, Placed.Kind.BOOLEAN, parser.getText());
            case VALUE_NULL -> new Placed.Scalar(place, Placed.Kind.NULL, "null");
            case null, default -> throw ProfileProblems.refusal(List.of(source + " " + place + ": a value was expected here"));
        };
    }

    private static Placed.Place place(JsonLocation location) {
        return new Placed.Place(location.getLineNr(), location.getColumnNr());
    }
}
