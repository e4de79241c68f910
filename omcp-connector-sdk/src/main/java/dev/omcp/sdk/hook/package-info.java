/**
 * The hook SPI: plugin code that runs around {@code tools/call}, {@code resources/read} and
 * {@code prompts/get} (spec 6.1).
 */
package dev.omcp.sdk.hook;
