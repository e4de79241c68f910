/** Roles, permissions and the decisions made from them. */
package dev.omcp.core.policy;
