import { GOOGLE_PROFILE } from './google.js'
import type { ProfileName, ProviderProfile } from './profile.js'
import { SEED_PROFILE } from './seed.js'

export const PROFILES: Readonly<Record<ProfileName, ProviderProfile>> = {
  seed: SEED_PROFILE,
  google: GOOGLE_PROFILE,
}

export {
  operationOf,
  PROFILE_NAMES,
  type Operation,
  type ProfileName,
  type ProviderProfile,
  type UpstreamDefaults,
  type UpstreamSetting,
} from './profile.js'
