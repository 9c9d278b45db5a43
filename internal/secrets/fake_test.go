package secrets

// Fake secrets are assembled at run time so that this repository never
// holds one whole and its own secret scanning stays clean.
var (
	fakeAWS       = "AKIA" + "Z7QF4M2XK6PLR3TB"
	fakeAWSSecret = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYzq8Lm2vB7Tr0"
	fakeGitHub    = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
	fakeSlack     = "xoxb-" + "1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
	fakeStripe    = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc9Xk2"
	fakePass      = "Tr0ub4dor3xq9" + "Lm2vB7zQ"
	fakeKey       = "-----BEGIN " + "RSA PRIVATE KEY-----\n" +
		"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u\n" +
		"+qKhbwKfBstIs+bMY2Zkp18gnTxKLxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo9z+40RQ\n" +
		"-----END " + "RSA PRIVATE KEY-----\n"
)
