package main

// The rules of thumb of kotarena's Python heuristic bot (bots/kotarena-heuristic), one
// decision kind at a time: which dice to keep toward goals chosen from the situation,
// whether to yield Tokyo by health, which cards to buy by their worth in energy. Other
// decision kinds (cards add some) get the first legal action, which by convention
// passes or declines.

import (
	"math"
	"strconv"
	"strings"
)

// Dice faces, as views number them.
const (
	one = iota
	two
	three
	energyFace
	heart
	claw
)

const (
	winningStars    = 20
	enterHealth     = 6  // outside with this much health: go for an empty Tokyo
	attackHealth    = 8  // outside with this much health: attack Tokyo though we must move in
	threatStars     = 15 // an opponent this close to winning is attacked whatever it costs
	desperateHealth = 3  // at this health or less outside, every die looks for hearts
	closeToWinning  = winningStars - 4

	yieldBase      = 3.0
	yieldPerRoller = 2.0
	nearlyWon      = 18
	attackerThreat = 16

	starWorth    = 1.6
	healthWorth  = 1.0
	buyRatio     = 0.8
	saveWithin   = 3
	sweepCost    = 2
	sweepReserve = 5
	winning      = 1000.0
)

type cardInfo struct {
	cost int
	keep bool
}

// Stars a card gives its buyer at once.
var starsGained = map[string]int{
	"apartment_building": 3, "commuter_train": 2, "corner_store": 1, "skyscraper": 4,
	"jet_fighters": 5, "national_guard": 2, "tanks": 4, "nuclear_power_plant": 2,
	"gas_refinery": 2, "vast_storm": 2, "drop_from_high_altitude": 3,
}

// Health a card gives (positive) or takes (negative) from its buyer at once.
var healthChange = map[string]int{
	"heal": 2, "nuclear_power_plant": 3, "jet_fighters": -4, "national_guard": -2,
	"tanks": -3, "high_altitude_bombing": -3,
}

// Worth in energy of the rest of each card's effect, for this way of playing.
var cardWorth = map[string]float64{
	"energize": 9.0, "fire_blast": 3.5, "gas_refinery": 4.0, "high_altitude_bombing": 2.0,
	"evacuation_orders": 6.0, "vast_storm": 1.0, "frenzy": 6.0,
	"extra_head": 9.0, "giant_brain": 6.0, "acid_attack": 6.0, "spiked_tail": 5.0, "alpha_monster": 5.0,
	"nova_breath": 6.0, "even_bigger": 5.0, "urbavore": 4.0, "poison_spit": 4.0, "burrowing": 4.0,
	"eater_of_the_dead": 4.0, "herbivore": 4.0, "it_has_a_child": 5.0, "friend_of_children": 3.5,
	"regeneration": 3.0, "armor_plating": 3.0, "camouflage": 3.0, "dedicated_news_team": 3.0,
	"energy_hoarder": 2.5, "fire_breathing": 3.0, "omnivore": 3.0, "poison_quills": 2.0,
	"rooting_for_the_underdog": 2.0, "gourmet": 2.0, "complete_destruction": 1.5,
	"were_only_making_it_stronger": 2.0, "solar_powered": 1.5,
	"background_dweller": 0.5, "herd_culler": 0.5, "healing_ray": 0.5, "jets": 0.5, "made_in_a_lab": 0.5,
	"metamorph": 0.5, "mimic": 0.5, "monster_batteries": 0.0, "opportunist": 0.5,
	"parasitic_tentacles": 0.5, "plot_twist": 0.5, "psychic_probe": 0.5, "rapid_healing": 0.5,
	"smoke_cloud": 0.5, "stretchy": 0.5, "telepath": 0.5, "wings": 0.5,
	"alien_metabolism": 0.0, "freeze_time": 0.0, "shrink_ray": 0.0,
}

// Worth of a card the tables above do not know, as a fraction of its cost.
func priorWorth(keep bool) float64 {
	if keep {
		return 0.8
	}
	return 0.7
}

type heuristic struct {
	sweptTurn int // the turn of our last sweep: one a turn at most
}

func (h *heuristic) choose(v *View) string {
	me := v.Player
	switch v.Kind {
	case "roll":
		return legalOr(v, rollAction(v, me, energyWanted(v, me, offers(v))))
	case "yield":
		action := "stay"
		if float64(v.Health[me]) <= yieldThreshold(v, me) {
			action = "yield"
		}
		return legalOr(v, action)
	case "buy":
		action := buyAction(v, me, offers(v), h.sweptTurn == v.Turn)
		if action == "sweep" {
			h.sweptTurn = v.Turn
		}
		return legalOr(v, action)
	}
	return v.Legal[0]
}

// legalOr is action if it is legal, else the first legal action.
func legalOr(v *View, action string) string {
	for _, legal := range v.Legal {
		if legal == action {
			return action
		}
	}
	return v.Legal[0]
}

func contains(list []string, item string) bool {
	for _, x := range list {
		if x == item {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------- dice

func inTokyo(v *View, me int) bool { return me == v.City || me == v.Bay }

// targets are the monsters our claws would hit now.
func targets(v *View, me int) []int {
	var hit []int
	if inTokyo(v, me) {
		for q, alive := range v.Alive {
			if alive && q != v.City && q != v.Bay {
				hit = append(hit, q)
			}
		}
		return hit
	}
	for _, q := range []int{v.City, v.Bay} {
		if q >= 0 {
			hit = append(hit, q)
		}
	}
	return hit
}

func numberStars(counts [6]int) int {
	stars := 0
	for face := one; face <= three; face++ {
		if counts[face] >= 3 {
			stars += face + counts[face] - 2
		}
	}
	return stars
}

// winsNow says whether the dice, resolved as they are, win the game.
func winsNow(v *View, me int, counts [6]int) bool {
	stars := v.Stars[me] + numberStars(counts)
	hit := targets(v, me)
	claws := counts[claw]
	if claws > 0 && !inTokyo(v, me) && len(hit) == 0 {
		stars++ // taking the empty Tokyo
	}
	if stars >= winningStars {
		return true
	}
	if claws == 0 || len(hit) == 0 {
		return false
	}
	for q, alive := range v.Alive {
		if alive && q != me && !(containsInt(hit, q) && v.Health[q] <= claws) {
			return false
		}
	}
	return true
}

func containsInt(list []int, item int) bool {
	for _, x := range list {
		if x == item {
			return true
		}
	}
	return false
}

// keepCounts is how many dice of each face to keep.
func keepCounts(v *View, me int, counts [6]int, wanted int) [6]int {
	var keep [6]int
	health := v.Health[me]
	tokyo := inTokyo(v, me)
	hit := targets(v, me)
	claws := counts[claw]
	switch {
	case tokyo:
		keep[claw] = claws
	case len(hit) == 0:
		if health >= enterHealth || v.Stars[me] >= winningStars-3 {
			keep[claw] = min(1, claws)
		}
	default:
		weakest, threat := math.MaxInt, 0
		for _, q := range hit {
			weakest = min(weakest, v.Health[q])
			threat = max(threat, v.Stars[q])
		}
		if claws >= weakest || health >= attackHealth || threat >= threatStars {
			keep[claw] = claws
		}
	}
	desperate := false
	if !tokyo {
		keep[heart] = min(counts[heart], v.MaxHealth[me]-health)
		desperate = health <= desperateHealth
	}
	for face := one; face <= three; face++ {
		if counts[face] >= 3 {
			keep[face] = counts[face]
		}
	}
	if !desperate && v.RollsLeft > 0 {
		for face := three; face >= one; face-- { // hold the best pair only
			if counts[face] == 2 && (face != one || v.Stars[me] >= closeToWinning) {
				keep[face] = 2
				break
			}
		}
	}
	keep[energyFace] = min(counts[energyFace], wanted)
	return keep
}

// rollAction is "stop", or "reroll" and the positions (from 1) of the dice not kept.
func rollAction(v *View, me int, wanted int) string {
	var counts [6]int
	for _, face := range v.Dice {
		counts[face]++
	}
	if winsNow(v, me, counts) {
		return "stop"
	}
	left := keepCounts(v, me, counts, wanted)
	var positions []string
	for position, face := range v.Dice {
		if left[face] > 0 {
			left[face]--
		} else {
			positions = append(positions, strconv.Itoa(position+1))
		}
	}
	if len(positions) == 0 {
		return "stop"
	}
	return "reroll " + strings.Join(positions, " ")
}

// ---------------------------------------------------------------- Tokyo

// yieldThreshold: we yield at this health or less, by the monsters that roll before our turn.
func yieldThreshold(v *View, me int) float64 {
	n := len(v.Alive)
	rollers := 0
	for seat := (v.Active + 1) % n; seat != me; seat = (seat + 1) % n {
		if v.Alive[seat] && seat != v.City && seat != v.Bay {
			rollers++
		}
	}
	if rollers == 0 {
		return 0 // nobody can attack before our turn: the stars are free
	}
	threshold := yieldBase + yieldPerRoller*float64(rollers)
	if v.Stars[me] >= nearlyWon || v.Stars[v.Active] >= attackerThreat {
		threshold -= 2
	}
	return threshold
}

// ---------------------------------------------------------------- cards

type offer struct {
	slot int
	card string
	info cardInfo
}

// offers are the face-up cards of the market (none in a game without cards).
func offers(v *View) []offer {
	if v.Deck == nil {
		return nil
	}
	var found []offer
	for slot, card := range v.Market {
		if card == nil {
			continue
		}
		info, known := cardTable[*card]
		if !known {
			continue // a card newer than this bot: never bought
		}
		found = append(found, offer{slot + 1, *card, info})
	}
	return found
}

// timeLeft falls from 1 to 0.5 as the leader nears 20 stars.
func timeLeft(v *View) float64 {
	leader := 0
	for q, alive := range v.Alive {
		if alive {
			leader = max(leader, v.Stars[q])
		}
	}
	return 1.0 - 0.5*float64(min(leader, winningStars))/winningStars
}

// worth is what a card is worth to us now, in energy.
func worth(v *View, me int, o offer) float64 {
	health := v.Health[me]
	change := healthChange[o.card]
	if change < 0 && health+change <= 0 {
		return 0 // it would eliminate us
	}
	stars := starsGained[o.card]
	if stars > 0 && v.Stars[me]+stars >= winningStars {
		return winning
	}
	value, known := cardWorth[o.card]
	if !known {
		_, gives := starsGained[o.card]
		_, changes := healthChange[o.card]
		if gives || changes {
			value = 0
		} else {
			value = float64(o.info.cost) * priorWorth(o.info.keep)
		}
	}
	value += float64(stars) * starWorth
	if change > 0 {
		value += float64(min(change, v.MaxHealth[me]-health)) * healthWorth
	} else {
		value += float64(change) * healthWorth
	}
	if o.info.keep {
		value *= timeLeft(v)
	}
	return value
}

func worthBuying(v *View, me int, o offer) bool {
	return worth(v, me, o) >= buyRatio*float64(o.info.cost)
}

// energyWanted is the energy dice worth keeping: what the cheapest card worth buying lacks.
func energyWanted(v *View, me int, market []offer) int {
	energy := v.Energy[me]
	wanted := 0
	for _, o := range market {
		if energy < o.info.cost && o.info.cost <= energy+saveWithin && worthBuying(v, me, o) {
			if short := o.info.cost - energy; wanted == 0 || short < wanted {
				wanted = short
			}
		}
	}
	return wanted
}

// buyAction buys the affordable card that gains the most over its cost, else sweeps
// the market (once a turn, with energy to spare), else is done.
func buyAction(v *View, me int, market []offer, swept bool) string {
	energy := v.Energy[me]
	best, bestGain := -1, math.Inf(-1)
	for i, o := range market {
		if o.info.cost <= energy && worthBuying(v, me, o) {
			if gain := worth(v, me, o) - float64(o.info.cost); gain > bestGain {
				best, bestGain = i, gain
			}
		}
	}
	if best >= 0 {
		if action := "buy " + strconv.Itoa(market[best].slot); contains(v.Legal, action) {
			return action
		}
	} else if !swept && contains(v.Legal, "sweep") && len(market) > 0 && energy >= sweepCost+sweepReserve {
		return "sweep"
	}
	return "done"
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func max(a, b int) int {
	if a > b {
		return a
	}
	return b
}
