import { GOOGLE_PROFILE } from './google.js'
import type { ProfileName, ProviderProfile } from './profile.js'
import { GENERIC_PROFILE } from './generic.js'

export const PROFILES: Readonly<Record<ProfileName, ProviderProfile>> = {
  generic: GENERIC_PROFILE,
  google: GOOGLE_PROFILE,
}

export {
  operationOf,
  PROFILE_NAMES,
  type Operation,
  type ProfileName,
  type ProviderProfile,
  type TestingMode,
  type UpstreamDefaults,
  type UpstreamSetting,
} from './profile.js'
