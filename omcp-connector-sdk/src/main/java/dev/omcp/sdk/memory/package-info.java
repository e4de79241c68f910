/**
 * The process-wide memory budget for backend answers in flight: how much heap answers being read
 * may take together, so that many large answers at once are refused one by one instead of ending
 * the gateway with an {@code OutOfMemoryError}.
 */
package dev.omcp.sdk.memory;
