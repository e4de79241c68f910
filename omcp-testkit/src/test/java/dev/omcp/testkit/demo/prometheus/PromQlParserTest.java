package dev.omcp.testkit.demo.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The demo's PromQL parser binds operators as Prometheus does, so a query reads the same in the demo and in production. */
class PromQlParserTest {

    @Test
    void unlessBindsTighterThanOr_asAndDoes() {
        // Prometheus: 'or' is the loosest binary operator; 'and' and 'unless' share the level above it
        Expr parsed = PromQlParser.parse("a or b unless c");

        assertThat(parsed).isInstanceOfSatisfying(Expr.Binary.class, or -> {
            assertThat(or.op()).isEqualTo("or");
            assertThat(or.left()).isInstanceOf(Expr.Selector.class);
            assertThat(or.right()).isInstanceOfSatisfying(Expr.Binary.class, unless -> assertThat(unless.op()).isEqualTo("unless"));
        });
    }

    @Test
    void andAndUnless_shareALevel_andAssociateToTheLeft() {
        Expr parsed = PromQlParser.parse("a and b unless c");

        assertThat(parsed).isInstanceOfSatisfying(Expr.Binary.class, unless -> {
            assertThat(unless.op()).isEqualTo("unless");
            assertThat(unless.left()).isInstanceOfSatisfying(Expr.Binary.class, and -> assertThat(and.op()).isEqualTo("and"));
        });
    }
}
