/** Who is calling: principals and the ports that authenticate them. */
package dev.omcp.ports.identity;
