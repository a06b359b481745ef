// The `hamlet world` lines of the CLI's usage text (kept apart so printing help loads nothing else).
export const WORLD_USAGE = `  hamlet world save <file>                             save every service's state to one file (gzip JSON Lines)
  hamlet world load <file>                             replace the world with a saved one
  hamlet world reset                                   empty the world
  hamlet world hash                                    print the state hash
  hamlet world seed <scenario.yaml> [--keys-out F]     seed a scenario through the services' APIs; print (or write) its keys
  hamlet world seed --demo [--seed N] [--size small|large] [--keys-out F]   replace the world with the generated demo world (and write its agents' keys)
  hamlet world keys <agent> [--services a,b] [--keys-out F]   mint keys to act as one of the world's agents`;

