package dev.omcp.testkit.demo.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    @Test
    void theAtModifier_pinsASelectorToTheQuerysStartEndOrATime_inEitherOrderWithOffset() {
        Expr parsed = PromQlParser.parse("present_over_time(a{job=\"x\"}[1h] @ end()) unless on() b offset 5m @ start()");

        Expr pinned = Expr.pinned(parsed, 1_000, 9_000);
        assertThat(pinned).isInstanceOfSatisfying(Expr.Binary.class, unless -> {
            assertThat(unless.left()).isInstanceOfSatisfying(Expr.Call.class, call -> assertThat(call.args().get(0))
                    .isEqualTo(new Expr.Selector(((Expr.Selector) call.args().get(0)).matchers(), 3_600_000, 0, new Expr.At.Fixed(9_000))));
            assertThat(unless.right()).isInstanceOfSatisfying(Expr.Selector.class, b -> {
                assertThat(b.at()).isEqualTo(new Expr.At.Fixed(1_000));
                assertThat(b.offsetMillis()).isEqualTo(300_000);
            });
        });
        assertThat(PromQlParser.parse("a @ 1700000000").toString()).contains("Fixed[millis=1700000000000]");
    }

    @Test
    void aModifierGivenTwice_isAParseError_asInPrometheus_notTheLastOneWinning() {
        // a query the fake answered would fail against a real Prometheus: the demo must not hide such a query
        for (String query : new String[] {"a offset 1m offset 2m", "a[5m] offset 1m @ end() offset 2m", "a @ start() @ end()"}) {
            assertThatThrownBy(() -> PromQlParser.parse(query)).as(query).isInstanceOf(PromQlException.class);
        }
    }
}
