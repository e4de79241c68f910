/** IP address registration data from outside the gateway: the RDAP lookup port and its answers. */
package dev.omcp.ports.ipenrich;
