/**
 * HTTP helpers for connector code that reads what backends answer: response bodies read with a
 * bound, and GETs of a backend's JSON API with typed failures.
 */
package dev.omcp.sdk.http;
