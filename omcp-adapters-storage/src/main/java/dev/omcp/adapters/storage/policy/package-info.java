/** The custom role policy file ({@code OMCP_RBAC_POLICY_FILE}), YAML read with SnakeYAML's safe loader. */
package dev.omcp.adapters.storage.policy;
