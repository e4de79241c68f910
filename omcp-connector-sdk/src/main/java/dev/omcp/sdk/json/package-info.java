/** Fast access to JSON-P: one cached provider instead of a service lookup per call. */
package dev.omcp.sdk.json;
