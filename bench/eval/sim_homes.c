/*
 * sim_homes.c — the two homes the simulator's robots live in: a TEACh-like
 * apartment (AI2-THOR object classes, ids "Mug_1", furniture named by its
 * class when there is one) and an ARMAR-7-like lab flat (lowercase classes,
 * named places to navigate to, the valuables people misplace).
 *
 * Each room has a few spots the robot looks from; what it sees is the
 * furniture at its spot and what stands on it or in it (if open).
 */
#include "bench/eval/sim_internal.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------- TEACh -- */

static const sim_room_def teach_rooms[] = {
	{ "kitchen", 5 },
	{ "living room", 3 },
	{ "bedroom", 2 },
	{ "bathroom", 2 },
};

static const sim_place_def teach_places[] = {
	/* kitchen: counter, sink, stove, fridge, table */
	{ "CounterTop_0", "CounterTop", 0, 0, 0, "the counter next to the coffee machine" },
	{ "CoffeeMachine", "CoffeeMachine", 0, 0, PF_TOGGLE, "the coffee machine" },
	{ "Toaster", "Toaster", 0, 0, PF_IN | PF_TOGGLE, "the toaster" },
	{ "Cabinet_0", "Cabinet", 0, 0, PF_IN | PF_OPEN, "the cabinet above the coffee machine" },
	{ "Cabinet_1", "Cabinet", 0, 0, PF_IN | PF_OPEN, "the cabinet left of the toaster" },
	{ "Sink", "Sink", 0, 1, PF_IN, "the sink" },
	{ "Faucet", "Faucet", 0, 1, PF_TOGGLE, "the faucet" },
	{ "CounterTop_1", "CounterTop", 0, 1, 0, "the counter by the sink" },
	{ "Drawer_0", "Drawer", 0, 1, PF_IN | PF_OPEN, "the drawer left of the sink" },
	{ "Drawer_1", "Drawer", 0, 1, PF_IN | PF_OPEN, "the drawer right of the sink" },
	{ "StoveBurner_0", "StoveBurner", 0, 2, 0, "the front burner of the stove" },
	{ "StoveBurner_1", "StoveBurner", 0, 2, 0, "the back burner of the stove" },
	{ "StoveKnob_0", "StoveKnob", 0, 2, PF_TOGGLE, "the knob of the front burner" },
	{ "StoveKnob_1", "StoveKnob", 0, 2, PF_TOGGLE, "the knob of the back burner" },
	{ "Microwave", "Microwave", 0, 2, PF_IN | PF_OPEN | PF_TOGGLE, "the microwave" },
	{ "Cabinet_2", "Cabinet", 0, 2, PF_IN | PF_OPEN, "the cabinet under the stove" },
	{ "Fridge", "Fridge", 0, 3, PF_IN | PF_OPEN, "the fridge" },
	{ "Cabinet_3", "Cabinet", 0, 3, PF_IN | PF_OPEN, "the cabinet next to the fridge" },
	{ "GarbageCan", "GarbageCan", 0, 3, PF_IN, "the bin" },
	{ "DiningTable", "DiningTable", 0, 4, 0, "the dining table" },
	{ "Chair", "Chair", 0, 4, 0, "the chair at the dining table" },
	/* living room: sofa, TV, window */
	{ "Sofa", "Sofa", 1, 0, 0, "the sofa" },
	{ "CoffeeTable", "CoffeeTable", 1, 0, 0, "the coffee table" },
	{ "ArmChair", "ArmChair", 1, 0, 0, "the armchair" },
	{ "TVStand", "TVStand", 1, 1, 0, "the TV stand" },
	{ "Television", "Television", 1, 1, PF_TOGGLE, "the television" },
	{ "SideTable_0", "SideTable", 1, 1, 0, "the side table next to the TV" },
	{ "Drawer_2", "Drawer", 1, 1, PF_IN | PF_OPEN, "the drawer of the TV stand" },
	{ "Shelf", "Shelf", 1, 2, 0, "the shelf by the window" },
	{ "HousePlant", "HousePlant", 1, 2, PF_FILL, "the house plant" },
	{ "FloorLamp", "FloorLamp", 1, 2, PF_TOGGLE, "the floor lamp" },
	/* bedroom: bed, desk */
	{ "Bed", "Bed", 2, 0, 0, "the bed" },
	{ "SideTable_1", "SideTable", 2, 0, 0, "the night table" },
	{ "DeskLamp", "DeskLamp", 2, 0, PF_TOGGLE, "the desk lamp" },
	{ "Desk", "Desk", 2, 1, 0, "the desk" },
	{ "Dresser", "Dresser", 2, 1, 0, "the dresser" },
	{ "Drawer_3", "Drawer", 2, 1, PF_IN | PF_OPEN, "the dresser drawer" },
	/* bathroom: sink, tub */
	{ "Sink_1", "Sink", 3, 0, PF_IN, "the bathroom sink" },
	{ "Faucet_1", "Faucet", 3, 0, PF_TOGGLE, "the bathroom faucet" },
	{ "CounterTop_2", "CounterTop", 3, 0, 0, "the bathroom counter" },
	{ "Bathtub", "Bathtub", 3, 1, PF_IN, "the bathtub" },
	{ "Toilet", "Toilet", 3, 1, 0, "the toilet" },
	{ "TowelHolder", "TowelHolder", 3, 1, 0, "the towel holder" },
};

static const sim_item_def teach_items[] = {
	{ "Mug", "Cabinet_0" },         { "Mug", "CounterTop_0" },    { "Cup", "Cabinet_1" },
	{ "Bowl", "Cabinet_1" },        { "Bowl", "DiningTable" },    { "Bowl", "Cabinet_3" },
	{ "Plate", "Cabinet_3" },       { "Plate", "DiningTable" },   { "Plate", "CounterTop_1" },
	{ "Fork", "Drawer_0" },         { "Fork", "DiningTable" },    { "Fork", "Sink" },
	{ "Spoon", "Drawer_0" },        { "Spoon", "CounterTop_1" },  { "Knife", "Drawer_1" },
	{ "ButterKnife", "CounterTop_0" }, { "Pan", "StoveBurner_0" }, { "Pot", "Cabinet_2" },
	{ "Potato", "Fridge" },         { "Tomato", "Fridge" },       { "Lettuce", "Fridge" },
	{ "Egg", "Fridge" },            { "Bread", "CounterTop_0" },  { "Apple", "DiningTable" },
	{ "DishSponge", "Sink" },       { "SaltShaker", "CounterTop_1" },
	{ "RemoteControl", "CoffeeTable" }, { "RemoteControl", "TVStand" },
	{ "Book", "Desk" },             { "Book", "Sofa" },           { "Pillow", "Sofa" },
	{ "Pillow", "Bed" },            { "Newspaper", "CoffeeTable" }, { "KeyChain", "SideTable_0" },
	{ "CellPhone", "Desk" },        { "Watch", "SideTable_1" },   { "Vase", "Shelf" },
	{ "SoapBar", "CounterTop_2" },  { "Towel", "TowelHolder" },   { "ToiletPaper", "Toilet" },
};

const sim_home sim_home_teach = {
	teach_rooms, N(teach_rooms), teach_places, N(teach_places), teach_items, N(teach_items), "hand",
};

/* ------------------------------------------------------------- ARMAR -- */

/* one spot per named place: the robot navigates to a place and sees it */
static const sim_room_def armar_rooms[] = {
	{ "kitchen", 1 },  { "dining table", 1 }, { "living room", 1 },
	{ "entrance", 1 }, { "bedroom", 1 },      { "workbench", 1 },
};

static const sim_place_def armar_places[] = {
	{ "counter_0", "counter", 0, 0, 0, "the kitchen counter" },
	{ "dishwasher_0", "dishwasher", 0, 0, PF_IN | PF_OPEN | PF_TOGGLE, "the dishwasher" },
	{ "fridge_0", "fridge", 0, 0, PF_IN | PF_OPEN, "the fridge" },
	{ "cabinet_0", "cabinet", 0, 0, PF_IN | PF_OPEN, "the kitchen cabinet" },
	{ "sink_0", "sink", 0, 0, PF_IN, "the sink" },
	{ "table_0", "table", 1, 0, 0, "the dining table" },
	{ "chair_0", "chair", 1, 0, 0, "the chair at the dining table" },
	{ "sofa_0", "sofa", 2, 0, 0, "the sofa" },
	{ "coffee-table_0", "coffee-table", 2, 0, 0, "the coffee table" },
	{ "tv_0", "tv", 2, 0, PF_TOGGLE, "the TV" },
	{ "shelf_0", "shelf", 3, 0, 0, "the shelf at the entrance" },
	{ "coat-rack_0", "coat-rack", 3, 0, 0, "the coat rack" },
	{ "nightstand_0", "nightstand", 4, 0, 0, "the nightstand" },
	{ "bed_0", "bed", 4, 0, 0, "the bed" },
	{ "workbench_0", "workbench", 5, 0, 0, "the workbench" },
};

static const sim_item_def armar_items[] = {
	{ "cup", "counter_0" },         { "cup", "table_0" },        { "cup", "cabinet_0" },
	{ "plate", "table_0" },         { "plate", "cabinet_0" },    { "bowl", "counter_0" },
	{ "soy-milk", "fridge_0" },     { "apple-tea", "cabinet_0" }, { "vanilla-cookies", "cabinet_0" },
	{ "nesquik", "counter_0" },     { "sponge", "sink_0" },      { "screwdriver", "workbench_0" },
	{ "keys", "shelf_0" },          { "wallet", "table_0" },     { "medicine", "nightstand_0" },
	{ "glasses", "coffee-table_0" },
};

const sim_home sim_home_armar = {
	armar_rooms, N(armar_rooms), armar_places, N(armar_places), armar_items, N(armar_items), "hand",
};
