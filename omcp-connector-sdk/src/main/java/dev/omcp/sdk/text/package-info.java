/** Text helpers for connector code that handles what agents send: regular expressions run on a budget. */
package dev.omcp.sdk.text;
