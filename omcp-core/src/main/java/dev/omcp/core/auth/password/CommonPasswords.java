package dev.omcp.core.auth.password;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The builtin common-password list and the matching rule: case is ignored, simple substitutions
 * ({@code @} for {@code a}, {@code 0} for {@code o} ...) are undone, and a password that is a
 * listed word padded only with digits and symbols ({@code Dragon2024!}, {@code !!password1})
 * counts as that word.
 */
public final class CommonPasswords {
    private static final String RESOURCE = "common-passwords.txt";
    /** Listed words at least this long also match when padded with digits and symbols. */
    private static final int PADDED_MATCH_MIN = 5;

    private final Set<String> words;

    CommonPasswords(Set<String> words) {
        Set<String> lower = new HashSet<>();
        words.forEach(word -> lower.add(word.toLowerCase(Locale.ROOT)));
        this.words = Set.copyOf(lower);
    }

    /** The list shipped with the gateway. */
    public static CommonPasswords builtin() {
        try (InputStream in = CommonPasswords.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the builtin common-password list " + RESOURCE + " is missing from the jar");
            }
            Set<String> words = new HashSet<>();
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                String word = line.strip();
                if (!word.isEmpty() && !word.startsWith("#")) {
                    words.add(word);
                }
            }
            return new CommonPasswords(words);
        } catch (IOException e) {
            throw new UncheckedIOException("the builtin common-password list cannot be read", e);
        }
    }

    /** How many words the list holds. */
    public int size() {
        return words.size();
    }

    /** Whether {@code password} is, or is built from, a listed word. */
    public boolean contains(String password) {
        for (String form : forms(password)) {
            if (words.contains(form) || words.contains(trimPadding(form))) {
                return true;
            }
            for (String word : words) {
                if (word.length() >= PADDED_MATCH_MIN && form.contains(word) && onlyPadding(form.replace(word, ""))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static List<String> forms(String password) {
        String lower = password.toLowerCase(Locale.ROOT);
        Set<String> forms = new LinkedHashSet<>();
        forms.add(lower);
        forms.add(undoSubstitutions(lower, 'i'));
        forms.add(undoSubstitutions(lower, 'l'));
        forms.add(undoSubstitutions(trimPadding(lower), 'i'));
        forms.add(undoSubstitutions(trimPadding(lower), 'l'));
        forms.remove("");
        return new ArrayList<>(forms);
    }

    private static String undoSubstitutions(String text, char forOne) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            out.append(switch (c) {
                case '0' -> 'o';
                case '1' -> forOne;
                case '3' -> 'e';
                case '4', '@' -> 'a';
                case '5', '$' -> 's';
                case '7' -> 't';
                default -> c;
            });
        }
        return out.toString();
    }

    /** Strips leading and trailing digits and symbols. */
    private static String trimPadding(String text) {
        int start = 0;
        int end = text.length();
        while (start < end && !Character.isLetter(text.charAt(start))) {
            start++;
        }
        while (end > start && !Character.isLetter(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(start, end);
    }

    private static boolean onlyPadding(String rest) {
        return rest.chars().noneMatch(Character::isLetter);
    }
}
