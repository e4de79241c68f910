/** HTTP helpers for connector code that reads what backends answer: response bodies read with a bound. */
package dev.omcp.sdk.http;
