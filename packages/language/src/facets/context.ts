import { type DiagnosticBag, type Span } from '../diagnostics/diagnostic.js';
import { type Constant, type Entity, type ErrorDef, type StateMachine } from '@ninefold/model';
import { type YEntry } from '../source/yaml.js';
import { type Reader } from './reader.js';
import { type Environments } from '../expressions/check.js';

/** What the facet readers share while one spec compiles; filled facet by facet, in order. */
export interface CompileContext {
  readonly bag: DiagnosticBag;
  readonly reader: Reader;
  /** CEL environments per scope, built lazily once the names they hold are known. */
  readonly envs: Environments;
  constants: Record<string, Constant>;
  entities: Record<string, Entity>;
  states: Record<string, StateMachine>;
  errors: Record<string, ErrorDef>;
  roleNames: string[];
  /** Declaration spans by key (`Claim`, `Claim.amount`, `role:manager`…), for later diagnostics. */
  readonly spans: Map<string, Span>;
  /** Entity keys read in a second pass, once every field of every entity is known. */
  readonly pendingEntityKeys: Map<string, Map<string, YEntry>>;
}
