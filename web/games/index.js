// index.js: one drawing module per game, by the engine's name.
import * as antiquity_quest from './antiquity_quest.js';
import * as another_mans_treasure from './another_mans_treasure.js';
import * as adel_verplichtet from './adel_verplichtet.js';
import * as quarriors from './quarriors.js';
import * as artifact_stack from './artifact_stack.js';

const modules = { antiquity_quest, another_mans_treasure, adel_verplichtet, quarriors, artifact_stack };

export function gameModule(name) {
  return modules[name] ?? null;
}
