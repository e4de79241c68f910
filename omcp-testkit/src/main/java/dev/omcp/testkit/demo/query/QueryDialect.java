package dev.omcp.testkit.demo.query;

/**
 * The lexical rules in which the query languages the simulated backends read differ.
 *
 * @param quotes the characters that open and close a string literal; a backtick string is raw,
 *     the others read backslash escapes ({@code \n}, {@code \t}, {@code \\}, and any of these quote
 *     characters but the backtick standing for itself)
 * @param nameSymbols the characters besides letters and digits a name may hold; a name never
 *     starts with a digit
 * @param keywordSymbols the characters besides letters and digits that continue a word: a keyword
 *     followed by one of them is not that keyword
 * @param keywordsIgnoreCase whether {@code BY} reads as the keyword {@code by}
 * @param durationsCountYears whether a duration may use {@code y} (365 days) besides {@code ms},
 *     {@code s}, {@code m}, {@code h}, {@code d} and {@code w}
 */
public record QueryDialect(String quotes, String nameSymbols, String keywordSymbols, boolean keywordsIgnoreCase,
        boolean durationsCountYears) {}
