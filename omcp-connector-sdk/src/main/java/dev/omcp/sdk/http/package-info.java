/**
 * HTTP helpers for connector code that reads what backends answer: response bodies read with a
 * bound, leases that count them against the process's memory budget for answers in flight
 * ({@code dev.omcp.sdk.memory}), and GETs of a backend's JSON API with typed failures.
 */
package dev.omcp.sdk.http;
