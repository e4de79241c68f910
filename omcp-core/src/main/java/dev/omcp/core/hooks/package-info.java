/**
 * Lifecycle hooks of plugins (spec 6.1): a registry that changes at runtime, the pipeline that runs
 * the hooks of one kind in ascending priority with a timeout and a failure mode, and the interceptor
 * that runs it around {@code tools/call}, {@code resources/read} and {@code prompts/get}.
 */
package dev.omcp.core.hooks;
