// The museum app's module, reduced to what wires linkwright into each build variant: the
// variant's Kotlin router regenerated from the link contract before it is compiled, and its
// flavor's manifest held to the contract by `linkwright sync --check`. Untested on Gradle: no
// Gradle or Android Gradle Plugin runs where linkwright is developed (docs/app-builds.md says what
// the test suite checks instead).
import org.gradle.api.file.DirectoryProperty
import org.gradle.api.tasks.Exec
import org.gradle.api.tasks.OutputDirectory

plugins {
    id("com.android.application")
    id("org.jetbrains.kotlin.android")
}

android {
    namespace = "com.example.museo"
    compileSdk = 35
    defaultConfig { minSdk = 24 }
    // One flavor per linkwright environment, named as the environment file is.
    flavorDimensions += "environment"
    productFlavors {
        create("production") { dimension = "environment"; applicationId = "com.example.museo" }
        create("staging") { dimension = "environment"; applicationId = "com.example.museo.staging" }
    }
}

// The folder holding environments/, domains/ and policies/ (here the repository's top), the app's
// name there, and the linkwright executable (LINKWRIGHT overrides the one on PATH).
val linkwrightConfig: File = rootDir.resolve("../../..")
val linkwrightApp = "museo"
val linkwright: String = providers.environmentVariable("LINKWRIGHT").getOrElse("linkwright")

/// Runs linkwright; the router task's output folder is the variant's generated Kotlin source.
abstract class LinkwrightRouter : Exec() {
    @get:OutputDirectory abstract val outputDirectory: DirectoryProperty
}

androidComponents {
    onVariants { variant ->
        val environment = variant.flavorName ?: return@onVariants
        val name = variant.name.replaceFirstChar { it.uppercase() }
        val contract = fileTree(linkwrightConfig) { include("environments/**", "domains/**", "policies/**") }
        val router = tasks.register<LinkwrightRouter>("generate${name}LinkRouter") {
            description = "Writes the ${variant.name} link router from the linkwright configuration"
            inputs.files(contract)
            outputDirectory.set(layout.buildDirectory.dir("generated/linkwright/${variant.name}"))
            argumentProviders.add(CommandLineArgumentProvider {
                listOf(
                    "generate", "kotlin", "--config", linkwrightConfig.path, "--env", environment,
                    "--app", linkwrightApp, "--out", outputDirectory.get().asFile.path,
                )
            })
            executable = linkwright
        }
        variant.sources.kotlin?.addGeneratedSourceDirectory(router, LinkwrightRouter::outputDirectory)
        val manifestCheck = tasks.register<Exec>("check${name}LinkManifest") {
            description = "Fails when the ${environment} manifest's intent filters differ from the contract"
            inputs.files(contract, file("src/${environment}/AndroidManifest.xml"))
            commandLine(
                linkwright, "sync", "--check", "--config", linkwrightConfig.path, "--env", environment,
                "--app", linkwrightApp, "--platform", "android",
            )
        }
        // Each variant's own pre-build task, registered after onVariants runs: matched lazily.
        tasks.matching { it.name == "pre${name}Build" }.configureEach { dependsOn(manifestCheck) }
    }
}
